// The command line's usage texts: each command's (`recd <command> --help`) and the summary of all.
export const HELP = {
  serve: `usage: recd serve [--workers N]

Runs the service on PORT (8080) and HOST (127.0.0.1), on the Redis of REDIS_URL or an embedded
redis-server under RECD_DATA_DIR. --workers N (else RECD_WORKERS, else one per core) serving
processes share the port. Settings are environment variables: see the README's Configuration.`,
  'create-root': `usage: recd create-root --email EMAIL [--reset]

Adds a root account (and its organisation) to the Redis of REDIS_URL, or to the embedded one. The
password is read from RECD_ROOT_PASSWORD, else from standard input (its first line), never from the
command line, where other users of the machine could read it (ps, shell history). An account with
that e-mail already there is left as it is (exit code 1); --reset sets the password of an existing
root account instead, and its tokens issued before stop working (its sessions end).`,
  import: `usage: recd import ratings|interactions|items|users FILE [--url URL]

Sends the rows of FILE (.csv with a header line, or .parquet) to the running recd at URL (else
RECD_URL, else http://127.0.0.1:8080/v1) through its bulk endpoints, with the token in RECD_TOKEN
(root, manager or backend, of the database to import into). Columns as the API's fields:
ratings user_id,item_id,rating[,timestamp]; interactions user_id,item_id,interaction_type[,timestamp];
items item_id and item properties; users user_id and user properties (in CSV a list is JSON text,
an empty cell a value left out). A row the server refuses is skipped and counted rejected with its
reason. Exit code 0 when the file was read to the end (rows rejected or not: see the summary), 2 when
a column is not a property of the database (nothing sent), 1 when the run stopped.`,
  export: `usage: recd export ratings|interactions|items|users FILE [--url URL]

Writes every rating, interaction, item or user of a database to FILE (.csv or .parquet, the columns
recd import reads), read a page at a time from the running recd at URL (else RECD_URL, else
http://127.0.0.1:8080/v1) with the token in RECD_TOKEN (root, manager or backend of the database).
Exit code 0 when every row was written, 1 when the run stopped.`,
  plan: `usage: recd plan --users N --items M --ratings R [--factors F]

Prints what one database of N users, M items and R ratings needs: Redis memory (before and after its
first training), recd memory per serving process, the model's size (exact, from the model layout) and
the training time, from a cost model fitted to the runs recorded in bench/RESULTS.md on a 2-core AMD
EPYC VM (src/cli/plan-model.ts). Factors default to RECD_ALS_FACTORS; RECD_LIST_LENGTH,
RECD_USER_LISTS_SECONDS, RECD_SEARCH_SECONDS, RECD_USER_LIST_CACHE and RECD_ITEM_INDEX_MIN_ITEMS are
read from the environment as recd serve reads them. Needs no Redis and no running recd.`,
} as const;
export type Command = keyof typeof HELP;

export const USAGE = `usage: recd [serve] [--workers N]
       recd create-root --email EMAIL [--reset]
       recd import ratings|interactions|items|users FILE [--url URL]
       recd export ratings|interactions|items|users FILE [--url URL]
       recd plan --users N --items M --ratings R [--factors F]
       recd <command> --help
       recd --help | --version

commands:
  serve        run the service (the default)
  create-root  add a root account, or set its password (--reset)
  import       send ratings, interactions, items or users from a CSV or Parquet file to a running recd
  export       write a running recd's ratings, interactions, items or users to a CSV or Parquet file
  plan         estimate Redis memory, recd memory, model size and training time for a database's size

exit codes: 0 done, 2 wrong command line, 78 wrong setting, 1 failed`;
