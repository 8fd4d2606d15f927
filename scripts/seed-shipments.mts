/**
 * Seeds many shipments into one organization directly in SQL (set-based, generate_series), for benchmarks of the
 * lists. Not through the API: 100 000 create+purchase calls would take far too long.
 *
 *   DATABASE_URL=postgres://… tsx scripts/seed-shipments.mts [--org org_…] [--count 100000]
 *
 * Without --org, the default organization. Each shipment gets what the API would have stored: two addresses
 * (shipper and recipient), one parcel (two for ~10%), one or two sandbox rates; about half are purchased, with a
 * tracker, tracking number, selected rate and a 2–4 KB PDF-ish label. created_at is spread over the last 365 days.
 * Tracking numbers have the sandbox's shape (SBX + 21 digits) but are not trackable. Postgres only (not PGlite).
 * Ends with VACUUM ANALYZE so that the planner has statistics and index-only scans see an all-visible heap (so no
 * `synchronous_commit = off`: VACUUM cannot mark pages all-visible before the commit record is flushed). VACUUM
 * needs the tables' owner; a connecting superuser also skips the foreign key triggers while inserting.
 */
import postgres from "postgres";
import { pathToFileURL } from "node:url";

export interface SeedOptions {
  orgId: string;
  count: number;
  /** Progress lines; silent by default. */
  log?: (line: string) => void;
}

export interface SeedResult {
  orgId: string;
  inserted: Record<string, number>;
  insertMs: number;
  vacuumMs: number;
}

// Recipients' cities (Austin is one in PLACES.length, for `?q=austin`), shippers' warehouses, names and streets.
const PLACES: [city: string, state: string, postal: string][] = [
  ["Austin", "TX", "78701"],
  ["New York", "NY", "10001"],
  ["Los Angeles", "CA", "90012"],
  ["Chicago", "IL", "60614"],
  ["Houston", "TX", "77002"],
  ["Phoenix", "AZ", "85004"],
  ["Philadelphia", "PA", "19103"],
  ["San Antonio", "TX", "78205"],
  ["San Diego", "CA", "92101"],
  ["Dallas", "TX", "75201"],
  ["San Jose", "CA", "95113"],
  ["Jacksonville", "FL", "32202"],
  ["Columbus", "OH", "43215"],
  ["Charlotte", "NC", "28202"],
  ["Indianapolis", "IN", "46204"],
  ["Seattle", "WA", "98101"],
  ["Denver", "CO", "80202"],
  ["Boston", "MA", "02108"],
  ["Nashville", "TN", "37203"],
  ["Portland", "OR", "97204"],
  ["Las Vegas", "NV", "89101"],
  ["Detroit", "MI", "48226"],
  ["Atlanta", "GA", "30303"],
  ["Miami", "FL", "33130"],
];
const WAREHOUSES: [company: string, line1: string, city: string, state: string, postal: string, phone: string][] = [
  ["Acme Fulfilment", "500 Industrial Way", "Chicago", "IL", "60607", "+1 312 555 0100"],
  ["Acme Fulfilment East", "20 Port Rd", "Newark", "NJ", "07114", "+1 973 555 0100"],
  ["Acme Fulfilment West", "900 Logistics Pkwy", "Reno", "NV", "89502", "+1 775 555 0100"],
];
const FIRST = [
  "Ana",
  "Ben",
  "Chloe",
  "David",
  "Elena",
  "Farid",
  "Grace",
  "Hiro",
  "Ines",
  "Jamal",
  "Kate",
  "Liam",
  "Maya",
  "Noah",
  "Olga",
  "Pedro",
  "Quinn",
  "Rosa",
  "Sam",
  "Tara",
];
const LAST = [
  "Garcia",
  "Smith",
  "Nguyen",
  "Johnson",
  "Kim",
  "Brown",
  "Lopez",
  "Miller",
  "Davis",
  "Wilson",
  "Moore",
  "Taylor",
  "Clark",
  "Lewis",
  "Walker",
  "Young",
];
const COMPANIES = [
  "Blue Fern Studio",
  "Northwind Traders",
  "Pixel & Co",
  "Riverbend Books",
  "Summit Outfitters",
  "Tidewater Labs",
];
const STREETS = [
  "Elm St",
  "Oak Ave",
  "Maple Dr",
  "Cedar Ln",
  "Pine St",
  "Main St",
  "Lake Rd",
  "Hill St",
  "Park Ave",
  "River Rd",
];

type Sql = postgres.Sql;

/** The default organization's id (the one BOOTSTRAP_API_KEY belongs to). */
export async function defaultOrgId(sql: Sql): Promise<string> {
  const [row] = await sql<{ id: string }[]>`select id from organizations where is_default`;
  if (!row) throw new Error("no default organization: start the server once on this database first");
  return row.id;
}

const newIdSql = (prefix: string) => `'${prefix}' || replace(gen_random_uuid()::text, '-', '')`;

export async function seedShipments(sql: Sql, { orgId, count, log = () => {} }: SeedOptions): Promise<SeedResult> {
  if (!Number.isInteger(count) || count < 1) throw new Error("count must be a positive integer");
  const [org] = await sql`select id from organizations where id = ${orgId}`;
  if (!org) throw new Error(`organization ${orgId} does not exist`);
  // The rates' carrier_ref and the purchase's connection: history, not a foreign key; a made-up id is fine without one.
  const [conn] = await sql<{ id: string }[]>`
    select id from carrier_connections where org_id = ${orgId} and carrier_name = 'sandbox' order by (carrier_id = 'sandbox') desc, created_at limit 1`;
  const connectionId = conn?.id ?? "car_" + "0".repeat(32);

  const started = Date.now();
  const inserted: Record<string, number> = {};
  const timings: string[] = [];
  const timed = async <T,>(label: string, query: PromiseLike<T>): Promise<T> => {
    const t = Date.now();
    const result = await query;
    timings.push(`${label} ${((Date.now() - t) / 1000).toFixed(1)}s`);
    return result;
  };
  // A superuser can skip the per-row foreign key triggers (the rows are consistent by construction): ~30% faster.
  const [role] = await sql<{ rolsuper: boolean }[]>`select rolsuper from pg_roles where rolname = current_user`;
  const skipForeignKeyChecks = role?.rolsuper === true;
  await sql.begin(async (tx) => {
    if (skipForeignKeyChecks) await tx`set local session_replication_role = replica`;
    await tx`create temp table seed_place (i int primary key, city text, state text, postal text) on commit drop`;
    await tx`insert into seed_place ${tx(PLACES.map(([city, state, postal], i) => ({ i: i + 1, city, state, postal })))}`;
    await tx`create temp table seed_wh (i int primary key, company text, line1 text, city text, state text, postal text, phone text) on commit drop`;
    await tx`insert into seed_wh ${tx(WAREHOUSES.map(([company, line1, city, state, postal, phone], i) => ({ i: i + 1, company, line1, city, state, postal, phone })))}`;
    // 64 incompressible blobs of 2–4 KB (random hex decoded), shared round-robin by the labels.
    await timed(
      "blobs",
      tx`
      create temp table seed_blob on commit drop as
      select i, decode(string_agg(md5(random()::text || i || '.' || j), '' order by j), 'hex') as b
      from generate_series(0, 63) i cross join lateral generate_series(1, 128 + i * 2) j
      group by i`,
    );

    log(`generating ${count} shipments…`);
    await timed(
      "seed_s",
      tx`
      create temp table seed_s on commit drop as
      select g.*,
        least(now(), g.created_at + random() * interval '3 hours') as purchased_at,
        round((5 + random() * 25)::numeric, 2) as base1,
        -- An empty \`person\` means a business recipient (company set).
        case when random() < 0.2 then (${COMPANIES}::text[])[1 + floor(random() * ${COMPANIES.length})::int] end as company,
        (${FIRST}::text[])[1 + floor(random() * ${FIRST.length})::int] || ' ' || (${LAST}::text[])[1 + floor(random() * ${LAST.length})::int] as person,
        (100 + floor(random() * 9000)::int) || ' ' || (${STREETS}::text[])[1 + floor(random() * ${STREETS.length})::int] as line1,
        1 + floor(random() * ${PLACES.length})::int as place,
        1 + floor(random() * ${WAREHOUSES.length})::int as warehouse,
        case when random() < 0.7 then 'ORD-' || lpad((floor(random() * 10000000))::int::text, 7, '0') end as reference,
        random() < 0.5 as purchased,
        random() < 0.7 as two_rates,
        random() < 0.1 as two_parcels,
        round((0.2 + random() * 20)::numeric, 2)::float8 as weight,
        ${tx.unsafe(newIdSql("shp_"))} as id,
        ${tx.unsafe(newIdSql("adr_"))} as shipper_id,
        ${tx.unsafe(newIdSql("adr_"))} as recipient_id,
        ${tx.unsafe(newIdSql("pcl_"))} as parcel1_id,
        ${tx.unsafe(newIdSql("pcl_"))} as parcel2_id,
        ${tx.unsafe(newIdSql("rat_"))} as rate1_id,
        ${tx.unsafe(newIdSql("rat_"))} as rate2_id,
        ${tx.unsafe(newIdSql("trk_"))} as tracker_id
      from (select n, now() - random() * interval '365 days' as created_at from generate_series(1, ${count}::int) n) g`,
    );
    // Derived columns: the recipient's residential flag, the rates' charges, the tracking number and search text.
    await timed(
      "seed",
      tx`
      create temp table seed on commit drop as
      select d.*, lower(concat_ws(' ', d.reference, d.tracking_number, d.person, d.company, d.city, d.postal)) as search_text
      from (select s.*, p.city, p.state, p.postal, s.company is null as residential,
        round(s.base1 * 0.08, 2) as fuel1,
        round(s.base1 * 1.75, 2) as base2,
        round(s.base1 * 1.75 * 0.08, 2) as fuel2,
        case when s.company is null then 4.50 else 0 end as resi,
        case when s.purchased then
          'SBX' || lpad(floor(extract(epoch from s.purchased_at) - 1577836800)::bigint::text, 9, '0')
                || lpad(floor(random() * 1e11)::bigint::text, 11, '0') || floor(random() * 10)::int
        end as tracking_number
      from seed_s s join seed_place p on p.i = s.place) d`,
    );

    const addr = await timed(
      "addresses",
      tx`
      insert into addresses (id, org_id, person_name, company_name, address_line1, city, postal_code, state_code, country_code, residential, phone_number, created_at)
      select s.shipper_id, ${orgId}, null, w.company, w.line1, w.city, w.postal, w.state, 'US', false, w.phone, s.created_at
      from seed s join seed_wh w on w.i = s.warehouse
      union all
      select s.recipient_id, ${orgId}, s.person, s.company, s.line1, s.city, s.postal, s.state, 'US', s.residential, null, s.created_at
      from seed s`,
    );
    inserted.addresses = addr.count;

    // Trackers before shipments (shipments.tracker_id references them); with the foreign keys checked, their
    // shipment_id (which references shipments) is set afterwards.
    const trk = await timed(
      "trackers",
      tx`
      insert into trackers (id, org_id, carrier_name, carrier_id, carrier_connection_id, tracking_number, status, test_mode, shipment_id,
        created_at, updated_at)
      select tracker_id, ${orgId}, 'sandbox', 'sandbox', ${connectionId}, tracking_number, 'pending', true,
        case when ${skipForeignKeyChecks}::boolean then id end, purchased_at, purchased_at
      from seed where purchased`,
    );
    inserted.trackers = trk.count;

    const shp = await timed(
      "shipments",
      tx`
      insert into shipments (id, org_id, status, shipper_id, recipient_id, carrier_ids, services, options, customs, reference, label_type,
        test_mode, messages, carrier_connection_id, carrier_name, carrier_id, tracking_number, shipment_identifier, selected_rate_id,
        selected_rate, service, payment, meta, tracker_id, search_text, created_at, updated_at)
      select s.id, ${orgId}, case when s.purchased then 'purchased' else 'created' end, s.shipper_id, s.recipient_id,
        '["sandbox"]'::jsonb, '[]'::jsonb, '{}'::jsonb, null, s.reference, 'PDF', true, '[]'::jsonb,
        case when s.purchased then ${connectionId} end,
        case when s.purchased then 'sandbox' end,
        case when s.purchased then 'sandbox' end,
        s.tracking_number,
        case when s.purchased then 'SBXS' || upper(substr(md5('sandbox-shipment:' || s.tracking_number), 1, 16)) end,
        case when s.purchased then s.rate1_id end,
        case when s.purchased then jsonb_build_object(
          'id', s.rate1_id, 'carrier_name', 'sandbox', 'carrier_id', 'sandbox', 'currency', 'USD', 'service', 'SBX_GROUND',
          'discount', 0, 'base_charge', s.base1, 'total_charge', s.base1 + s.fuel1 + s.resi, 'duties_and_taxes', 0, 'transit_days', 5,
          'extra_charges', jsonb_build_array(jsonb_build_object('name', 'Fuel surcharge', 'amount', s.fuel1, 'currency', 'USD'))
            || case when s.residential then jsonb_build_array(jsonb_build_object('name', 'Residential surcharge', 'amount', 4.5, 'currency', 'USD')) else '[]'::jsonb end,
          'meta', jsonb_build_object('service_name', 'Sandbox Ground', 'rate_provider', 'sandbox', 'carrier_connection_id', ${connectionId}::text,
            'estimated_delivery', to_char(s.created_at + interval '7 days', 'YYYY-MM-DD')),
          'carrier_ref', ${connectionId}::text, 'test_mode', true) end,
        case when s.purchased then 'SBX_GROUND' end,
        case when s.purchased then '{"paid_by":"sender","currency":"USD","account_number":null}'::jsonb end,
        case when s.purchased then jsonb_build_object('rate_provider', 'sandbox', 'service_name', 'Sandbox Ground', 'carrier_connection_id', ${connectionId}::text)
             else '{}'::jsonb end,
        case when s.purchased then s.tracker_id end,
        s.search_text, s.created_at, case when s.purchased then s.purchased_at else s.created_at end
      from seed s`,
    );
    inserted.shipments = shp.count;

    if (!skipForeignKeyChecks) {
      await timed(
        "trackers.shipment_id",
        tx`update trackers t set shipment_id = s.id from seed s where s.purchased and t.id = s.tracker_id`,
      );
    }

    const pcl = await timed(
      "parcels",
      tx`
      insert into parcels (id, org_id, shipment_id, position, weight, weight_unit, width, height, length, dimension_unit, is_document)
      select parcel1_id, ${orgId}, id, 0, weight, 'KG', 20 + (weight * 2)::int, 10 + weight::int, 30 + (weight * 3)::int, 'CM', false from seed
      union all
      select parcel2_id, ${orgId}, id, 1, 1.5, 'KG', 20, 15, 10, 'CM', false from seed where two_parcels`,
    );
    inserted.parcels = pcl.count;

    const rat = await timed(
      "rates",
      tx`
      insert into rates (id, org_id, shipment_id, position, carrier_ref, carrier_name, carrier_id, service, currency, base_charge, discount,
        duties_and_taxes, total_charge, extra_charges, transit_days, meta, test_mode)
      select rate1_id, ${orgId}, id, 0, ${connectionId}, 'sandbox', 'sandbox', 'SBX_GROUND', 'USD', base1, 0, 0, base1 + fuel1 + resi,
        jsonb_build_array(jsonb_build_object('name', 'Fuel surcharge', 'amount', fuel1, 'currency', 'USD'))
          || case when residential then jsonb_build_array(jsonb_build_object('name', 'Residential surcharge', 'amount', 4.5, 'currency', 'USD')) else '[]'::jsonb end,
        5, jsonb_build_object('service_name', 'Sandbox Ground', 'rate_provider', 'sandbox', 'carrier_connection_id', ${connectionId}::text,
          'estimated_delivery', to_char(created_at + interval '7 days', 'YYYY-MM-DD')), true
      from seed
      union all
      select rate2_id, ${orgId}, id, 1, ${connectionId}, 'sandbox', 'sandbox', 'SBX_2DAY', 'USD', base2, 0, 0, base2 + fuel2 + resi,
        jsonb_build_array(jsonb_build_object('name', 'Fuel surcharge', 'amount', fuel2, 'currency', 'USD'))
          || case when residential then jsonb_build_array(jsonb_build_object('name', 'Residential surcharge', 'amount', 4.5, 'currency', 'USD')) else '[]'::jsonb end,
        2, jsonb_build_object('service_name', 'Sandbox 2-Day', 'rate_provider', 'sandbox', 'carrier_connection_id', ${connectionId}::text,
          'estimated_delivery', to_char(created_at + interval '3 days', 'YYYY-MM-DD')), true
      from seed where two_rates`,
    );
    inserted.rates = rat.count;

    const lbl = await timed(
      "labels",
      tx`
      insert into labels (shipment_id, org_id, type, content, created_at)
      select s.id, ${orgId}, 'PDF', convert_to(E'%PDF-1.4\n% sandbox label ' || s.tracking_number || E'\n', 'UTF8') || b.b, s.purchased_at
      from seed s join seed_blob b on b.i = s.n % 64
      where s.purchased`,
    );
    inserted.labels = lbl.count;
  });
  const insertMs = Date.now() - started;
  log(
    `inserted in ${(insertMs / 1000).toFixed(1)} s: ${Object.entries(inserted)
      .map(([t, n]) => `${n} ${t}`)
      .join(", ")}`,
  );
  log(`  steps: ${timings.join(", ")}; vacuum analyze…`);
  const vacuumStarted = Date.now();
  await sql.unsafe("vacuum analyze shipments, addresses, parcels, rates, labels, trackers");
  const vacuumMs = Date.now() - vacuumStarted;
  log(`vacuum analyze in ${(vacuumMs / 1000).toFixed(1)} s`);
  return { orgId, inserted, insertMs, vacuumMs };
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("DATABASE_URL is required (the Shipwell database to seed, already migrated).");
    process.exit(1);
  }
  const count = Number(arg("count") ?? 100_000);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const orgId = arg("org") ?? (await defaultOrgId(sql));
    const result = await seedShipments(sql, { orgId, count, log: (line) => console.log(line) });
    console.log(`seeded ${result.inserted.shipments} shipments into ${orgId}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
