import { notFound } from "next/navigation";

/** Any address no page answers: shown by the group's not-found page, so the navigation stays (a not-found page at the root would not). */
export default function MissingPage() {
  notFound();
}
