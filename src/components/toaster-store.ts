import { createToaster } from '@chakra-ui/react';

/** The notices' store (zag's toast store), loaded with the first notice: see toaster.tsx. */
export const toaster = createToaster({ placement: 'top', pauseOnPageIdle: true, max: 5 });
