// Selection lab (placeholder until the trace types are final).
export function SelectionLab() {
  return <p className="muted">Selection lab</p>;
}
