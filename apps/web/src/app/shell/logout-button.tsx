import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { logout } from '@/features/auth/session';
import { useAuthService } from '@/lib/auth/auth-context';
import { PATHS } from '@/lib/paths';
import { texts } from '@/texts';

export function LogoutButton() {
  const auth = useAuthService();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  async function handleClick() {
    setBusy(true);
    try {
      if (await logout(auth)) {
        await navigate(PATHS.login);
        return;
      }
      notifications.show({ color: 'red', message: texts.shell.logoutFailed });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button variant="default" onClick={handleClick} loading={busy}>
      {texts.shell.logout}
    </Button>
  );
}
