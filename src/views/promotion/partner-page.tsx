import { CustomerPage } from './customer-page';

/** /promotion/partner (admin creates partners; a partner sees none). */
export default function PartnerPage() {
  return <CustomerPage kind="partner" />;
}
