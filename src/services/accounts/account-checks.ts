// What an account's e-mail, a service account's name and a password mail's redirect URL may be, and
// the answer to a wrong login (checked against a dummy hash when the account is unknown, so both
// take the same time).
import { authError, wrongData } from '../../errors/api-error.js';
import { hashSecret, randomSecret } from './secrets.js';

export const incorrectPassword = () => authError('INCORRECT_PASSWORD', 'incorrect login or password');

let dummy: Promise<string> | undefined;
export const dummyHash = () => (dummy ??= hashSecret(randomSecret()));

export function checkEmail(email: string): void {
  if (!/^[^\s@]+@[^\s@]+$/.test(email))
    throw wrongData('WRONG_PARAMETER', `${JSON.stringify(email)} is not an e-mail address`, { field: 'email' });
}

export function checkServiceName(name: string): void {
  if (!/^[A-Za-z0-9._@-]+$/.test(name)) {
    throw wrongData('WRONG_PARAMETER', 'service account names use letters, digits, dots, underscores, hyphens and @', { field: 'name' });
  }
}

export function checkRedirectUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw wrongData('WRONG_PARAMETER', 'email_redirect_url must be an http(s) URL', { field: 'email_redirect_url' });
  }
}
