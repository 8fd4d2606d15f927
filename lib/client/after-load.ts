/**
 * Runs `start` once the page has loaded, after its load event's handlers (in a timer of its own, also when the page
 * had already loaded), so that what it fetches never holds the page up nor counts among what the page needs to start.
 * Returns the cleanup for an effect.
 */
export function afterPageLoad(start: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const later = () => {
    timer = setTimeout(start, 0);
  };
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
  return () => {
    window.removeEventListener("load", later);
    clearTimeout(timer);
  };
}
