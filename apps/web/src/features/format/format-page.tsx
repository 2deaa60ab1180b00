import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { FORM_ROUTES, type FormName, formsFor } from '@vertragsgenerator/domain';
import { Link, Navigate } from 'react-router';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { usePermission } from '@/lib/permission-api';
import { texts } from '@/texts';

/**
 * Offers the forms the user's permission level allows; the server enforces the same matrix
 * (packages/domain/src/permissions.ts).
 */
export function FormatPage() {
  const permission = usePermission();
  const forms = permission.isSuccess ? formsFor(permission.data) : [];
  const [onlyForm] = forms;
  if (forms.length === 1 && onlyForm) return <Navigate to={FORM_ROUTES[onlyForm]} replace />;

  return (
    <Stack>
      <Title order={1}>{texts.format.heading}</Title>
      {permission.isPending && <SectionLoader />}
      {permission.isError && <Alert color="red">{errorMessage(permission.error)}</Alert>}
      {permission.isSuccess && <FormLinks forms={forms} />}
    </Stack>
  );
}

function FormLinks({ forms }: { forms: readonly FormName[] }) {
  if (forms.length === 0) return <Alert color="yellow">{texts.format.noPermission}</Alert>;
  return (
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
  );
}
