import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { FORM_ROUTES, formsFor } from '@vertragsgenerator/domain';
import { Link, Navigate } from 'react-router';
import { storedPermission } from '../../lib/storage';
import { texts } from '../../texts';

/** Offers the forms the user's permission level allows (SPEC §2, §6); the server enforces the same matrix. */
export function FormatPage() {
  const forms = formsFor(storedPermission());
  const [onlyForm] = forms;
  if (forms.length === 1 && onlyForm) return <Navigate to={FORM_ROUTES[onlyForm]} replace />;

  return (
    <Stack>
      <Title order={1}>{texts.format.heading}</Title>
      {forms.length === 0 ? (
        <Alert color="yellow">{texts.format.noPermission}</Alert>
      ) : (
        <>
          <Text>{texts.format.intro}</Text>
          <Stack component="nav" aria-label={texts.format.heading} align="flex-start" gap="sm">
            {forms.map((form) => (
              <Button key={form} component={Link} to={FORM_ROUTES[form]} variant="light">
                {texts.forms[form]}
              </Button>
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}
