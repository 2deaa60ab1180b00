import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PATHS } from '@/lib/paths';
import { texts } from '@/texts';

export function NotFoundPage() {
  return (
    <Stack>
      <Title order={1}>{texts.notFound.heading}</Title>
      <Text>{texts.notFound.text}</Text>
      <Anchor component={Link} to={PATHS.start}>
        {texts.notFound.backToStart}
      </Anchor>
    </Stack>
  );
}

/** Shown instead of React Router's English developer screen when rendering a route throws. */
export function RouteErrorPage() {
  return (
    <Center mih="100vh" p="md">
      <Text role="alert">{texts.unexpectedError}</Text>
    </Center>
  );
}

export function StartupErrorPage() {
  return (
    <Center mih="100vh" p="md">
      <Text role="alert">{texts.startupFailed}</Text>
    </Center>
  );
}
