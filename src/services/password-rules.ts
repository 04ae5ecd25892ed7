// The spec's password rules; a broken rule is WrongData WRONG_PARAMETER naming it.
import { LIMITS } from '../config/limits.js';
import { wrongData } from '../errors/api-error.js';

export function checkIndividualPassword(pw: string): void {
  const broken: string[] = [];
  if (pw.length < LIMITS.individualPasswordMin) broken.push(`at least ${LIMITS.individualPasswordMin} characters`);
  if (!/[a-z]/.test(pw)) broken.push('a lowercase letter');
  if (!/[A-Z]/.test(pw)) broken.push('an uppercase letter');
  if (!/[0-9]/.test(pw)) broken.push('a digit');
  if (!/[^a-zA-Z0-9]/.test(pw)) broken.push('a non-alphanumeric character');
  if (broken.length > 0) throw wrongData('WRONG_PARAMETER', `password must have ${broken.join(', ')}`, { field: 'password' });
}

export function checkServicePassword(pw: string): void {
  const broken: string[] = [];
  if (pw.length < LIMITS.servicePasswordMin) broken.push(`at least ${LIMITS.servicePasswordMin} characters`);
  if (!/[a-z]/.test(pw)) broken.push('a lowercase letter');
  if (!/[A-Z]/.test(pw)) broken.push('an uppercase letter');
  if (!/[0-9]/.test(pw)) broken.push('a digit');
  if (broken.length > 0) throw wrongData('WRONG_PARAMETER', `service password must have ${broken.join(', ')}`, { field: 'password' });
}
