import { CustomerPage } from './customer-page';

/** /promotion/all-merchant (admin, hidden): the merchants of the whole platform. */
export default function AllMerchantPage() {
  return <CustomerPage kind="allMerchant" />;
}
