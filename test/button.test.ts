import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Button } from "@/components/ui/button";

/** The server's HTML of a Button, as a page sends it before its script runs. */
const html = (props: Parameters<typeof Button>[0]) => renderToStaticMarkup(createElement(Button, props));

describe("Button in the server's HTML", () => {
  it("is a plain button unless it says it submits: one in a form never sends it", () => {
    expect(html({ children: "Copy" })).toMatch(/<button[^>]* type="button"/);
    expect(html({ children: "Copy" })).not.toMatch(/ disabled=""/);
  });

  it("holds a submit button back until the page's script runs, unless its form works without script", () => {
    expect(html({ type: "submit", children: "Sign in" })).toMatch(/<button[^>]* disabled=""[^>]* type="submit"/);
    expect(html({ type: "submit", submitsWithoutScript: true, children: "Filter" })).not.toMatch(/ disabled=""/);
  });

  it("gives a link drawn as a button no type", () => {
    const link = html({ asChild: true, children: createElement("a", { href: "/shipments/new" }, "Create label") });
    expect(link).toMatch(/^<a /);
    expect(link).not.toMatch(/type=/);
  });
});
