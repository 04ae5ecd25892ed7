// A file that does not fit the database it is imported into (a column that is no property, no id
// column), found before any row is sent: a wrong invocation, exit code 2 like a wrong command line.
export class FileMismatch extends Error {
  override name = 'FileMismatch';
}
