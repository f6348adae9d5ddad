/** An honest placeholder for a section the next release fills. */
export function PlaceholderView({ title, coming }: { title: string; coming: string }) {
  return (
    <section className="view placeholder" aria-labelledby="placeholder-title">
      <h1 id="placeholder-title">{title}</h1>
      <p>Not in this version yet. Coming next: {coming}</p>
      <p className="muted">Until then, the command line does this: see <code>npm run cli -- --help</code>.</p>
    </section>
  );
}
