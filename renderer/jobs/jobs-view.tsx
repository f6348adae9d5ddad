/** Jobs: every job of the Partner by status, live. */
export function JobsView() {
  return (
    <section className="view" aria-labelledby="jobs-title">
      <h1 id="jobs-title">Jobs</h1>
    </section>
  );
}
