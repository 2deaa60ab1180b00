import { Center, Loader } from '@mantine/core';
import { texts } from '@/texts';

export function FullPageLoader() {
  return (
    <Center mih="100vh" role="status" aria-label={texts.loading}>
      <Loader />
    </Center>
  );
}
