/** The accounts e2e/seed.ts creates before the server starts (test data only, on a throwaway database). */
export const OWNER = { name: "Olivia Owner", email: "owner@e2e.test", password: "owner password 1234" };
/** Added to the default organization as a member, as Team settings will do by invitation. */
export const MEMBER = { name: "Mick Member", email: "member@e2e.test", password: "member password 1234" };
