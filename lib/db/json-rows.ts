import { getTableColumns, type Table } from "drizzle-orm";

/**
 * Rows of a table as Postgres writes them into JSON (`json_agg(t)`, `to_json(t)`: keyed by column name), mapped to
 * what a drizzle select of the same table answers (keyed by property, each value through its column's own decoder:
 * timestamps become Dates, numeric money a number). A query can then bring a row's children along in the same
 * statement, one JSON column per child table, instead of one round trip per table.
 */

/**
 * A JSON list column as the driver answers it (parsed by postgres.js and PGlite, text otherwise); SQL NULL (an
 * aggregate over no rows) is an empty list.
 */
export function jsonList(value: unknown): Record<string, unknown>[] {
  return ((typeof value === "string" ? JSON.parse(value) : value) as Record<string, unknown>[] | null) ?? [];
}

/** One object of such a list as a row of `table`; a column missing from the object is null. */
export function jsonRow<T extends Table>(table: T): (json: Record<string, unknown>) => T["$inferSelect"] {
  const columns = Object.entries(getTableColumns(table));
  return (json) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const v = json[column.name];
      row[key] = v === null || v === undefined ? null : column.mapFromDriverValue(v);
    }
    return row as T["$inferSelect"];
  };
}

/** A JSON list column of `table`'s rows. */
export function jsonRows<T extends Table>(table: T): (value: unknown) => T["$inferSelect"][] {
  const row = jsonRow(table);
  return (value) => jsonList(value).map(row);
}
