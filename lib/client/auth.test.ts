// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_ENDED, SESSION_ENDED_EVENT } from "./api";
import { signedInProblem } from "./auth";
import { problemText } from "./problems";

describe("signedInProblem", () => {
  const heard: Event[] = [];
  const listen = (e: Event) => heard.push(e);
  afterEach(() => {
    window.removeEventListener(SESSION_ENDED_EVENT, listen);
    heard.length = 0;
  });

  it("says a 401 is an ended session and tells the page, as the API client does", () => {
    window.addEventListener(SESSION_ENDED_EVENT, listen);
    const problem = signedInProblem({ ok: false, status: 401, message: "Unauthorized" }, "Try again.");
    expect(problemText(problem)).toBe(SESSION_ENDED);
    expect(heard).toHaveLength(1);
  });

  it("shows another refusal's own message, or the fallback, and leaves the session alone", () => {
    window.addEventListener(SESSION_ENDED_EVENT, listen);
    expect(problemText(signedInProblem({ ok: false, status: 400, message: "Invalid password" }, "Try again."))).toBe(
      "Invalid password",
    );
    expect(problemText(signedInProblem({ ok: false, status: 500 }, "Try again."))).toBe("Try again.");
    expect(heard).toHaveLength(0);
  });
});
