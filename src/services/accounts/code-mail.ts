// The text of a mail carrying a password code: a link to the redirect URL with the code, or,
// without a redirect URL, the code itself for POST accounts/individual/reset/.
export function codeMailText(code: string, expiration: number, email: string, redirectUrl: string | undefined): string {
  const until = `valid until ${new Date(expiration * 1000).toISOString()}`;
  if (redirectUrl === undefined) return `Your code (${until}): ${code}\ncode_expiration_timestamp: ${expiration}\n`;
  const link = new URL(redirectUrl);
  link.searchParams.set('code', code);
  link.searchParams.set('email', email);
  link.searchParams.set('code_expiration_timestamp', String(expiration));
  return `Open this link to choose your password (${until}):\n${link.href}\n`;
}
