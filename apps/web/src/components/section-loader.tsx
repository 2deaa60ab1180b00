import { Center, Loader } from '@mantine/core';
import { texts } from '../texts';

/** Stands in for a part of a page whose data is still loading, while the rest of the page stays usable. */
export function SectionLoader() {
  return (
    <Center py="xl" role="status" aria-label={texts.loading}>
      <Loader />
    </Center>
  );
}
