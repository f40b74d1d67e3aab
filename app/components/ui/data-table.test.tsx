import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { type Column, DataTable } from "./data-table.tsx";

interface Row {
  id: string;
  name: string;
  total: number;
}
const ROWS: Row[] = [
  { id: "a", name: "Ada <admin>", total: 3 },
  { id: "b", name: "Brian", total: 12 },
];
const COLUMNS: Column<Row>[] = [
  { id: "name", header: "Name", cell: (r) => r.name },
  { id: "total", header: "Total", cell: (r) => r.total, align: "right" },
  { id: "go", header: "Actions", srOnly: true, cell: (r) => <a href={`/x/${r.id}`}>Open</a> },
];

describe("DataTable", () => {
  it("draws one header per column (screen-reader-only where asked) and one row per item, escaped", () => {
    const html = renderToString(
      <DataTable rows={ROWS} columns={COLUMNS} rowKey={(r) => r.id} caption="People" />,
    );
    expect(html.match(/<th /g)).toHaveLength(3);
    expect(html).toContain('<span class="sr-only">Actions</span>');
    expect(html).toContain('<caption class="sr-only">People</caption>');
    expect(html.match(/<tr class="align-top">/g)).toHaveLength(2);
    expect(html).toContain("Ada &lt;admin&gt;");
    expect(html).not.toContain("<admin>");
    expect(html).toMatch(/<td class="[^"]*text-right[^"]*">12<\/td>/);
  });

  it("lists each row on phones as heading/value pairs, or through `card` when given", () => {
    const plain = renderToString(<DataTable rows={ROWS} columns={COLUMNS} rowKey={(r) => r.id} />);
    expect(plain.match(/<dt /g)).toHaveLength(6);
    const carded = renderToString(
      <DataTable rows={ROWS} columns={COLUMNS} rowKey={(r) => r.id} card={(r) => <b>{r.name}</b>} />,
    );
    expect(carded).not.toContain("<dt ");
    expect(carded.match(/<b>/g)).toHaveLength(2);
  });
});
