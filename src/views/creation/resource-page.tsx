import { useIntl } from 'react-intl';
import { Page } from '../../components/page';
import { UploadDropZone } from './upload-drop-zone';
import { UploadQueue } from './upload-queue';

/**
 * /creation/resource: a stand-in that mounts the uploads (drop zone and queue) until the
 * library page (branch library-console) replaces this file; that page mounts the same two.
 */
export default function ResourcePage() {
  const intl = useIntl();
  return (
    <Page title={intl.formatMessage({ id: 'route.resource' })}>
      <UploadDropZone />
      <UploadQueue />
    </Page>
  );
}
