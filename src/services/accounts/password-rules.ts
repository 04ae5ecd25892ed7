// The spec's password rules; a broken rule is WrongData WRONG_PARAMETER naming it.
import { LIMITS } from '../../config/limits.js';
import { wrongData } from '../../errors/api-error.js';

const CLASSES: [string, RegExp][] = [
  ['a lowercase letter', /[a-z]/],
  ['an uppercase letter', /[A-Z]/],
  ['a digit', /[0-9]/],
  ['a non-alphanumeric character', /[^a-zA-Z0-9]/],
];

function check(pw: string, what: string, min: number, classes: number): void {
  const broken = pw.length < min ? [`at least ${min} characters`] : [];
  for (const [name, re] of CLASSES.slice(0, classes)) if (!re.test(pw)) broken.push(name);
  if (broken.length > 0) throw wrongData('WRONG_PARAMETER', `${what} must have ${broken.join(', ')}`, { field: 'password' });
}

// Individual: length, lower, upper, digit, symbol. Service (deprecated passwords): length, lower, upper, digit.
export const checkIndividualPassword = (pw: string) => check(pw, 'password', LIMITS.individualPasswordMin, 4);
export const checkServicePassword = (pw: string) => check(pw, 'service password', LIMITS.servicePasswordMin, 3);
