/** The part of sql.js (its own JavaScript, no types shipped) that src/history uses. */
declare module 'sql.js' {
  export type SqlValue = number | string | Uint8Array | null;
  /** A bound value: a bigint is bound as a 64-bit integer, exactly. */
  export type BindValue = SqlValue | bigint;
  export type BindParams = BindValue[] | Record<string, BindValue>;
  export interface QueryResult {
    columns: string[];
    values: SqlValue[][];
  }
  export interface Statement {
    bind(values?: BindParams): boolean;
    step(): boolean;
    /** With `useBigInt`, an INTEGER is read as a bigint (exact to 64 bits), else as a double. */
    getAsObject(
      params?: BindParams | null,
      config?: { useBigInt?: boolean },
    ): Record<string, SqlValue | bigint>;
    run(values?: BindParams): void;
    free(): boolean;
  }
  export interface Database {
    exec(sql: string, params?: BindParams): QueryResult[];
    run(sql: string, params?: BindParams): Database;
    prepare(sql: string, params?: BindParams): Statement;
    export(): Uint8Array;
    close(): void;
    getRowsModified(): number;
  }
  export interface SqlJsStatic {
    Database: new (data?: ArrayLike<number> | Buffer | null) => Database;
  }
  export default function initSqlJs(config?: { locateFile?: (file: string) => string }): Promise<SqlJsStatic>;
}
