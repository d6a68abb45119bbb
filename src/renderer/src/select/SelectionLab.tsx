// Selection lab: type a task, parse it (or write the parse), run variants side by side, read the execution graph and
// the stage tables, and ask what-if by editing states or a skill's states (select.replay recomputes at once).
import { useEffect, useState } from 'react';
import type { SelectionResult, Variant } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction, useApi } from '../app/use-api';
import { GraphSection } from './GraphSection';
import { ParseEditor, emptyParse, type EditableParse } from './ParseEditor';
import { PresetPicker } from './PresetPicker';
import { SelectionProgress } from './SelectionProgress';
import { CandidatesTable, NodesTable, StageTables } from './TraceTables';
import { describeEngines, describeScorers, traceOf } from './trace-view';
import './lab.css';
import { NoParseNote } from './NoParseNote';
import { SampleTaskPicker } from './SampleTaskPicker';
import { VariantAnswers } from './VariantAnswers';
import { VariantOptions } from './VariantOptions';
import { noEdits, toTraceEdits, withScore, type WhatIf } from './what-if';
import { useSelectionCost } from './use-selection-cost';
import { WhatIfPanel } from './WhatIfStates';
import { MakeProfileButton } from '../profiles/MakeProfileButton';
import { RecentRuns, ViaBadge } from './RecentRuns';

export function SelectionLab({ runId }: { runId?: number }) {
  const client = useClient();
  const [task, setTask] = useState(() => sessionStorage.getItem('lab.task') ?? '');
  const [parse, setParse] = useState<EditableParse | null>(null);
  const [parseNote, setParseNote] = useState('');
  const [chosen, setChosen] = useState<Variant[]>(['full', 'no-split', 'no-parse', 'dense']);
  const [k, setK] = useState<number | ''>('');
  const [recallK, setRecallK] = useState<number | ''>('');
  const [results, setResults] = useState<SelectionResult[]>([]);
  const [focus, setFocus] = useState<Variant | null>(null);
  const [whatIf, setWhatIf] = useState<WhatIf>(noEdits);
  const [replayed, setReplayed] = useState<SelectionResult | null>(null);
  const cost = useSelectionCost({
    task: task.trim(),
    variants: chosen,
    recallK: recallK === '' ? undefined : recallK,
    parse: parse ?? undefined,
  });
  const action = useAction();
  const replay = useAction();
  useEffect(() => sessionStorage.setItem('lab.task', task), [task]);
  const stored = useApi('select.get', runId !== undefined ? { runId } : null);
  useEffect(() => {
    if (!stored.data) return;
    const r = stored.data;
    setTask(r.trace.task);
    setParse(
      r.trace.parse ? { subtasks: [...r.trace.parse.subtasks], states: [...r.trace.parse.states] } : null,
    );
    setParseNote(`from run ${r.runId}`);
    setResults([r]);
    setFocus(r.variant);
    setWhatIf(noEdits);
    setReplayed(null);
  }, [stored.data]);

  const original = results.find((r) => r.variant === focus) ?? results[0];
  const shown = replayed ?? original;

  const parseTask = async () => {
    const answer = await action.run(() => client.call('parse.task', { task: task.trim() }));
    if (answer) {
      setParse({ subtasks: answer.subtasks, states: answer.states });
      setParseNote(
        `${answer.source}${answer.model ? ` · ${answer.model}` : ''}${answer.cached ? ' · cached' : ''}`,
      );
    }
  };
  const run = async () => {
    const requestId = cost.begin();
    const answer = await action
      .run(() =>
        client.call('select.compare', {
          task: task.trim(),
          variants: chosen,
          k: k === '' ? undefined : k,
          recallK: recallK === '' ? undefined : recallK,
          parse: parse ?? undefined,
          preset: cost.preset || undefined,
          requestId,
        }),
      )
      .finally(cost.end);
    if (answer) {
      setResults(answer);
      setFocus(answer.find((r) => r.variant === 'full')?.variant ?? answer[0]?.variant ?? null);
      setWhatIf(noEdits);
      setReplayed(null);
    }
  };
  const applyWhatIf = async (next: WhatIf) => {
    setWhatIf(next);
    if (!original) return;
    const edits = toTraceEdits(next);
    if (!edits.exact?.length) {
      setReplayed(null);
      return;
    }
    const answer = await replay.run(() => client.call('select.replay', { runId: original.runId, edits }));
    if (answer) setReplayed(answer);
  };

  const trace = shown ? traceOf(shown) : null;
  const gold = new Set(shown?.why?.gold ?? []);
  const canEdit = !!original && traceOf(original).parse !== null;

  return (
    <div className="lab" data-run={original?.runId}>
      <section className="panel" aria-label="Task">
        <div className="row wrap">
          <h2>Task</h2>
          <span className="spacer" />
          <SampleTaskPicker
            task={task}
            onPick={(item) => {
              setTask(item.task);
              setParse(
                item.parse ? { subtasks: [...item.parse.subtasks], states: [...item.parse.states] } : null,
              );
              setParseNote(item.parse ? `hand parse from label ${item.id}` : '');
            }}
          />
        </div>
        <RecentRuns current={runId} refresh={results.map((r) => r.runId).join(',')} />
        <textarea
          name="task"
          rows={2}
          value={task}
          onChange={(e) => setTask(e.target.value)}
          placeholder="Describe what the agent must do, e.g. put a hot mug in the coffee machine"
          aria-label="Task"
        />
        <div className="row wrap">
          <button onClick={() => void parseTask()} disabled={!task.trim() || action.busy}>
            Parse with the LLM
          </button>
          {!parse && (
            <button onClick={() => setParse(emptyParse(task.trim()))} disabled={!task.trim()}>
              Write the parse by hand
            </button>
          )}
          {parse && (
            <button className="ghost" onClick={() => setParse(null)}>
              Clear parse
            </button>
          )}
          {parseNote && <span className="muted small">{parseNote}</span>}
          {stored.data && stored.data.runId === original?.runId && <ViaBadge via={stored.data.via} />}
          {original && traceOf(original).parse?.givenBy === 'agent' && (
            <span
              className="badge"
              data-testid="parse-by-agent"
              title="The agent that asked over MCP wrote this task's sub-tasks and states itself"
            >
              parse by the agent
            </span>
          )}
        </div>
        {parse && <ParseEditor parse={parse} onChange={setParse} />}
        <VariantOptions
          chosen={chosen}
          onChosen={setChosen}
          k={k}
          onK={setK}
          recallK={recallK}
          onRecallK={setRecallK}
        />
        <PresetPicker
          preset={cost.preset}
          settingsPreset={cost.settingsPreset}
          onPreset={cost.setPreset}
          estimate={cost.estimate}
          estimateError={cost.estimateError}
          noTask={cost.noTask}
        />
        <button
          className="primary"
          onClick={() => void run()}
          disabled={!task.trim() || chosen.length === 0 || action.busy || cost.unavailable !== null}
          title={cost.unavailable?.message}
        >
          {action.busy ? 'Selecting…' : 'Select skills'}
        </button>
        {cost.progress && <SelectionProgress progress={cost.progress} onCancel={cost.cancel} />}
        <NoParseNote
          hasParse={parse !== null}
          storedParse={cost.storedParse}
          pending={cost.pending}
          onShow={() => void parseTask()}
        />
        <ErrorNote error={action.error} onDismiss={action.clearError} />
        <ErrorNote error={stored.error} />
      </section>

      {results.length > 0 && (
        <VariantAnswers
          results={results}
          whatIf={replayed}
          focus={focus}
          onFocus={(v) => {
            setFocus(v);
            setWhatIf(noEdits);
            setReplayed(null);
          }}
        />
      )}

      {shown && trace && (
        <>
          <GraphSection
            shown={shown}
            original={original}
            replayed={replayed !== null}
            gold={gold}
            busy={replay.busy}
            error={replay.error}
            onDismissError={replay.clearError}
            onTryFit={
              canEdit
                ? (t) => void applyWhatIf(withScore(whatIf, { kind: 'score', use: 'stage-fit', ...t }))
                : undefined
            }
          />
          {shown.answer.length > 0 && <MakeProfileButton key={shown.runId} runId={shown.runId} />}
          {original && traceOf(original).parse && (
            <WhatIfPanel
              states={traceOf(original).parse!.states}
              edited={whatIf.states}
              busy={replay.busy}
              canReset={replayed !== null}
              onReset={() => void applyWhatIf(noEdits)}
              onEdit={(index, text) =>
                void applyWhatIf({ ...whatIf, states: { ...whatIf.states, [index]: text } })
              }
            />
          )}
          <section className="panel" aria-label="Candidates">
            <div className="row">
              <h2>Candidates</h2>
              <span className="muted small">
                <span data-testid="trace-engines">{describeEngines(trace)}</span>
                {trace.preset && <span data-testid="trace-scorers"> · {describeScorers(trace)}</span>}
              </span>
            </div>
            <CandidatesTable
              trace={trace}
              gold={gold}
              onSkillEdit={
                canEdit
                  ? (edit) => void applyWhatIf({ ...whatIf, skills: { ...whatIf.skills, [edit.name]: edit } })
                  : undefined
              }
              onScoreEdit={canEdit ? (edit) => void applyWhatIf(withScore(whatIf, edit)) : undefined}
            />
          </section>
          {(trace.nodes.length > 0 || trace.stages.length > 0) && (
            <section className="panel two-columns" aria-label="Nodes and stages">
              <div>
                <h2>Nodes</h2>
                {trace.nodes.length > 0 ? (
                  <NodesTable trace={trace} />
                ) : (
                  <p className="muted small">This variant builds no graph.</p>
                )}
              </div>
              <div>
                <h2>Stages and φ</h2>
                <StageTables
                  trace={trace}
                  gold={gold}
                  editedFits={
                    new Set(
                      Object.values(whatIf.scores).flatMap((e) =>
                        e.use === 'stage-fit' ? [`${e.skill}@${e.tau}`] : [],
                      ),
                    )
                  }
                  onFitEdit={
                    canEdit
                      ? (skill, tau, r) =>
                          void applyWhatIf(
                            withScore(whatIf, { kind: 'score', use: 'stage-fit', skill, tau, r }),
                          )
                      : undefined
                  }
                />
              </div>
            </section>
          )}
          {trace.llm && (
            <section className="panel" aria-label="LLM selector">
              <h2>LLM selector</h2>
              {trace.llm.formatError && <div className="error-note">{trace.llm.formatError}</div>}
              {trace.llm.notCandidates.length > 0 && (
                <p>Named but not candidates (ignored): {trace.llm.notCandidates.join(', ')}</p>
              )}
              <pre className="raw">{trace.llm.raw}</pre>
            </section>
          )}
        </>
      )}
    </div>
  );
}
