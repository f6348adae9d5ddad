/** Records: every credential of the Partner in one virtualized table. */
export function RecordsView() {
  return (
    <section className="view" aria-labelledby="records-title">
      <h1 id="records-title">Records</h1>
    </section>
  );
}
