// The task's sub-tasks t_0..t_(m-1) and states s_0..s_m, editable; states always number sub-tasks + 1.
export interface EditableParse {
  subtasks: string[];
  states: string[];
}

export function emptyParse(task: string): EditableParse {
  return { subtasks: [task], states: ['', ''] };
}

export function ParseEditor({
  parse,
  onChange,
}: {
  parse: EditableParse;
  onChange: (p: EditableParse) => void;
}) {
  const setState = (i: number, text: string) =>
    onChange({ ...parse, states: parse.states.map((s, j) => (j === i ? text : s)) });
  const setSubtask = (i: number, text: string) =>
    onChange({ ...parse, subtasks: parse.subtasks.map((s, j) => (j === i ? text : s)) });
  const addAfter = (i: number) =>
    onChange({
      subtasks: [...parse.subtasks.slice(0, i + 1), '', ...parse.subtasks.slice(i + 1)],
      states: [...parse.states.slice(0, i + 2), '', ...parse.states.slice(i + 2)],
    });
  const remove = (i: number) =>
    onChange({
      subtasks: parse.subtasks.filter((_, j) => j !== i),
      states: parse.states.filter((_, j) => j !== i + 1),
    });
  return (
    <ol className="parse-editor" start={0} aria-label="Task parse">
      {parse.states.map((state, i) => (
        <li key={i}>
          <label className="state-line">
            <span className="muted small">s{i}</span>
            <input
              value={state}
              onChange={(e) => setState(i, e.target.value)}
              placeholder={i === 0 ? 'initial state' : `state after t${i - 1}`}
              aria-label={`State ${i}`}
            />
          </label>
          {i < parse.subtasks.length && (
            <div className="subtask-line">
              <span className="muted small">t{i}</span>
              <input
                value={parse.subtasks[i] ?? ''}
                onChange={(e) => setSubtask(i, e.target.value)}
                placeholder="sub-task"
                aria-label={`Sub-task ${i}`}
              />
              <button
                type="button"
                className="ghost small"
                onClick={() => addAfter(i)}
                title="Add a sub-task after this one"
              >
                +
              </button>
              {parse.subtasks.length > 1 && (
                <button
                  type="button"
                  className="ghost small"
                  onClick={() => remove(i)}
                  title="Remove this sub-task and the state after it"
                >
                  −
                </button>
              )}
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
