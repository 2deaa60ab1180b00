import { createTheme, Modal, Notification } from '@mantine/core';
import { texts } from '../texts';

/** Mantine's close buttons carry no accessible name of their own; those the app uses get the German one. */
const closeButtonProps = { 'aria-label': texts.close };

export const theme = createTheme({
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps } }),
  },
});
