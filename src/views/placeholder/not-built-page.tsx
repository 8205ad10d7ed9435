import { EmptyState } from '@chakra-ui/react';
import { useIntl } from 'react-intl';
import { useContext } from 'react';
import { UNSAFE_RouteContext } from 'react-router-dom';
import { Page } from '../../components/page';

/** Routes whose views later issues build: a plain page that says so. */
export default function NotBuiltPage() {
  const intl = useIntl();
  // Its own route's match (not the location's): a page kept alive behind another tab keeps its title.
  const { matches } = useContext(UNSAFE_RouteContext);
  const handle = matches[matches.length - 1]?.route.handle as { titleId?: string } | undefined;
  const title = handle?.titleId ? intl.formatMessage({ id: handle.titleId as 'app.notBuilt' }) : '';
  return (
    <Page title={title}>
      <EmptyState.Root>
        <EmptyState.Content>
          <EmptyState.Title>{intl.formatMessage({ id: 'app.notBuilt' })}</EmptyState.Title>
          <EmptyState.Description>
            {intl.formatMessage({ id: 'app.notBuiltDetail' }, { title })}
          </EmptyState.Description>
        </EmptyState.Content>
      </EmptyState.Root>
    </Page>
  );
}
