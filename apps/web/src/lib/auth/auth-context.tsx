import { createContext, type ReactNode, useContext } from 'react';
import type { AuthService } from './auth-service';

const AuthServiceContext = createContext<AuthService | null>(null);

export function AuthServiceProvider({ auth, children }: { auth: AuthService; children: ReactNode }) {
  return <AuthServiceContext value={auth}>{children}</AuthServiceContext>;
}

export function useAuthService(): AuthService {
  const auth = useContext(AuthServiceContext);
  if (!auth) throw new Error('useAuthService needs an AuthServiceProvider');
  return auth;
}
