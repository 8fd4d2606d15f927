// @vitest-environment happy-dom
import { createElement, type ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ApiProblem, SESSION_ENDED } from "@/lib/client/api";
import { ClientProblem } from "@/lib/client/problems";

/**
 * The dashboard's two helpers for changing something (components/forms), run in a DOM as a page runs them: what the
 * clerk is told (toasts), what is re-rendered (the router's refresh), and where the API's problems land in a form.
 */
const router = vi.hoisted(() => ({ refresh: vi.fn() }));
const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock("next/navigation", () => ({ useRouter: () => router }));
vi.mock("@/components/ui/toaster", () => ({ toast }));

const { useApiMutation } = await import("@/components/forms/use-api-mutation");
const { useApiForm } = await import("@/components/forms/use-api-form");

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return createElement(QueryClientProvider, { client }, children);
}

const problem = (status: number, errors: { field: string | null; message: string }[]) =>
  new ApiProblem(
    status,
    errors.map((e) => ({ code: "invalid", ...e })),
    [],
    null,
  );

beforeEach(() => vi.clearAllMocks());
afterEach(cleanup);

describe("useApiMutation", () => {
  it("on success: the toast, a refresh of the page, then the caller's own step, with result and input", async () => {
    const onSuccess = vi.fn();
    const { result } = renderHook(
      () =>
        useApiMutation({
          request: async (n: number) => n * 2,
          success: (doubled, n) => `${n} became ${doubled}.`,
          onSuccess,
        }),
      { wrapper },
    );
    await act(() => result.current.mutateAsync(21));
    expect(toast.success).toHaveBeenCalledWith("21 became 42.");
    expect(router.refresh).toHaveBeenCalledTimes(1);
    expect(onSuccess).toHaveBeenCalledWith(42, 21);
  });

  it("refreshes nothing and says nothing when told so", async () => {
    const { result } = renderHook(() => useApiMutation({ request: async () => "file", refresh: false }), { wrapper });
    await act(() => result.current.mutateAsync());
    expect(router.refresh).not.toHaveBeenCalled();
    expect(toast.success).not.toHaveBeenCalled();
  });

  it("on failure: one sentence in a toast; an ended session said as such; a title when given", async () => {
    const fail = (error: unknown, failureTitle?: string) =>
      renderHook(() => useApiMutation({ request: () => Promise.reject(error), failureTitle }), { wrapper }).result;
    let result = fail(problem(401, [{ field: null, message: "Provide an API key as `Authorization: Token`." }]));
    await act(() => result.current.mutateAsync().catch(() => {}));
    expect(toast.error).toHaveBeenLastCalledWith(SESSION_ENDED);

    result = fail(new ClientProblem("Allow pop-ups for this site."), "The label could not be printed.");
    await act(() => result.current.mutateAsync().catch(() => {}));
    expect(toast.error).toHaveBeenLastCalledWith("The label could not be printed.", {
      description: "Allow pop-ups for this site.",
    });
    expect(router.refresh).not.toHaveBeenCalled();
  });

  it("leaves a failure to the caller when asked (a form places it on its fields)", async () => {
    const { result } = renderHook(
      () => useApiMutation({ request: () => Promise.reject(problem(422, [])), failure: "caller" }),
      { wrapper },
    );
    await act(() => result.current.mutateAsync().catch(() => {}));
    expect(toast.error).not.toHaveBeenCalled();
    await waitFor(() => expect(result.current.isError).toBe(true));
  });
});

const schema = z.object({ name: z.string().min(1, "Name is required."), url: z.string() });

/** A small form built as the dashboard's dialogs are: two fields, their errors, the form's error, a submit. */
function TestForm({ request }: { request: (values: z.output<typeof schema>) => Promise<unknown> }) {
  const { form, onSubmit, formError } = useApiForm({
    schema,
    defaultValues: { name: "Ada", url: "" },
    request,
    success: "Saved.",
  });
  const { errors } = form.formState;
  return createElement(
    "form",
    { onSubmit },
    createElement("input", { "aria-label": "Name", ...form.register("name") }),
    createElement("p", { "data-testid": "name-error" }, errors.name?.message ?? ""),
    createElement("input", { "aria-label": "URL", ...form.register("url") }),
    createElement("p", { "data-testid": "url-error" }, errors.url?.message ?? ""),
    createElement("p", { "data-testid": "form-error" }, formError ?? ""),
    createElement("button", { type: "submit" }, "Save"),
  );
}

describe("useApiForm", () => {
  it("checks the schema before any request", async () => {
    const request = vi.fn();
    render(createElement(TestForm, { request }), { wrapper });
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "" } });
    fireEvent.click(screen.getByText("Save"));
    await waitFor(() => expect(screen.getByTestId("name-error").textContent).toBe("Name is required."));
    expect(request).not.toHaveBeenCalled();
  });

  it("sends the parsed values, then says it worked", async () => {
    const request = vi.fn(async (_values: z.output<typeof schema>) => ({}));
    render(createElement(TestForm, { request }), { wrapper });
    fireEvent.change(screen.getByLabelText("URL"), { target: { value: "https://example.test/hook" } });
    fireEvent.click(screen.getByText("Save"));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Saved."));
    expect(request.mock.calls[0]?.[0]).toEqual({ name: "Ada", url: "https://example.test/hook" });
  });

  it("puts the API's field problems under their fields, focuses the first, and the rest above the button", async () => {
    const request = () =>
      Promise.reject(
        problem(422, [
          { field: "url", message: "must be https" },
          { field: null, message: "Five endpoints at most." },
        ]),
      );
    render(createElement(TestForm, { request }), { wrapper });
    fireEvent.click(screen.getByText("Save"));
    await waitFor(() => expect(screen.getByTestId("url-error").textContent).toBe("must be https"));
    expect(screen.getByTestId("name-error").textContent).toBe("");
    expect(screen.getByTestId("form-error").textContent).toBe("Five endpoints at most.");
    expect(document.activeElement).toBe(screen.getByLabelText("URL"));
    expect(toast.error).not.toHaveBeenCalled();
  });

  it("says an ended session above the button, not on a field", async () => {
    render(
      createElement(TestForm, { request: () => Promise.reject(problem(401, [{ field: "name", message: "x" }])) }),
      {
        wrapper,
      },
    );
    fireEvent.click(screen.getByText("Save"));
    await waitFor(() => expect(screen.getByTestId("form-error").textContent).toBe(SESSION_ENDED));
    expect(screen.getByTestId("name-error").textContent).toBe("");
  });
});

const eventsSchema = z.object({ url: z.string(), events: z.array(z.string()) });

/** A form whose list of checkboxes shows its problems whole (the webhook endpoint's events), with a reset button. */
function EventsForm({ fields }: { fields: (values: z.input<typeof eventsSchema>) => ("url" | "events")[] }) {
  const { form, onSubmit, formError, reset } = useApiForm({
    schema: eventsSchema,
    defaultValues: { url: "https://example.test/hook", events: ["shipment.purchased"] },
    fields,
    request: () => Promise.reject(problem(422, [{ field: "events[2]", message: "unknown event" }])),
  });
  const { errors } = form.formState;
  return createElement(
    "form",
    { onSubmit },
    createElement("input", { "aria-label": "URL", ...form.register("url") }),
    createElement("p", { "data-testid": "events-error" }, errors.events?.message ?? ""),
    createElement("p", { "data-testid": "form-error" }, formError ?? ""),
    createElement("button", { type: "submit" }, "Save"),
    createElement("button", { type: "button", onClick: () => reset() }, "Start over"),
  );
}

describe("useApiForm's fields and reset", () => {
  it("places a problem of one item of a list on the list's field named by a function of the values", async () => {
    const fields = vi.fn((values: z.input<typeof eventsSchema>) => {
      expect(values.url).toBe("https://example.test/other");
      return ["url" as const, "events" as const];
    });
    render(createElement(EventsForm, { fields }), { wrapper });
    fireEvent.change(screen.getByLabelText("URL"), { target: { value: "https://example.test/other" } });
    fireEvent.click(screen.getByText("Save"));
    await waitFor(() => expect(screen.getByTestId("events-error").textContent).toBe("unknown event"));
    expect(screen.getByTestId("form-error").textContent).toBe("");
    expect(fields).toHaveBeenCalled();
  });

  it("without the list among the fields, says the problem above the button, naming its path", async () => {
    render(createElement(EventsForm, { fields: () => ["url" as const] }), { wrapper });
    fireEvent.click(screen.getByText("Save"));
    await waitFor(() => expect(screen.getByTestId("form-error").textContent).toBe("events[2] unknown event"));
    expect(screen.getByTestId("events-error").textContent).toBe("");
  });

  it("starts over on reset: the defaults back, no problem shown", async () => {
    render(createElement(EventsForm, { fields: () => ["url" as const] }), { wrapper });
    fireEvent.change(screen.getByLabelText("URL"), { target: { value: "https://example.test/other" } });
    fireEvent.click(screen.getByText("Save"));
    await waitFor(() => expect(screen.getByTestId("form-error").textContent).not.toBe(""));
    fireEvent.click(screen.getByText("Start over"));
    await waitFor(() => expect(screen.getByTestId("form-error").textContent).toBe(""));
    expect((screen.getByLabelText("URL") as HTMLInputElement).value).toBe("https://example.test/hook");
  });
});
