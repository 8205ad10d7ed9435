import { CustomerPage } from './customer-page';

/** /promotion/merchant (admin, partner). */
export default function MerchantPage() {
  return <CustomerPage kind="merchant" />;
}
