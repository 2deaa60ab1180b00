import { Center, Loader, Stack, Text } from '@mantine/core';
import { texts } from '@/texts';

interface SectionLoaderProps {
  /** Said below the spinner, and to screen readers; default: the generic "loading". */
  label?: string;
  /** The height of what will replace it, so that the page does not jump when it arrives. */
  height?: number | string;
}

/** Stands in for a part of a page whose data is still loading, while the rest of the page stays usable. */
export function SectionLoader({ label, height }: SectionLoaderProps) {
  return (
    <Center
      py={height === undefined ? 'xl' : undefined}
      h={height}
      role="status"
      aria-label={label ?? texts.loading}
    >
      <Stack align="center" gap="xs">
        <Loader />
        {label && (
          <Text size="sm" c="dimmed">
            {label}
          </Text>
        )}
      </Stack>
    </Center>
  );
}
