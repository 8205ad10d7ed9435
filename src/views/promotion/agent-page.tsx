import { CustomerPage } from './customer-page';

/** /promotion/agent (admin, partner). */
export default function AgentPage() {
  return <CustomerPage kind="agent" />;
}
