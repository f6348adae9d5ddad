/** A refusal as one announced line: the spec's error id, then its sentence. Nothing when there is no error. */
export function ErrorLine({ error }: { error: { id: string; message: string } | null | undefined }) {
  if (!error) return null;
  return (
    <p className="row-error" role="alert">
      <code>{error.id}</code> {error.message}
    </p>
  );
}
