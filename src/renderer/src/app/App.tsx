// The window: navigation, running-jobs indicator, theme switch, and the current screen.
import { useState } from 'react';
import type { JobInfo } from '../../../shared/jobs';
import type { CuratorClient } from '../client/client';
import { AuditScreen } from '../audit/AuditScreen';
import { EvaluationScreen } from '../evaluation/EvaluationScreen';
import { JobNotifications } from '../jobs/JobNotifications';
import { ReviewScreen } from '../review/ReviewScreen';
import { JobsScreen } from '../screens/JobsScreen';
import { LibraryScreen } from '../library/LibraryScreen';
import { ProfilesScreen } from '../profiles/ProfilesScreen';
import { SelectionLab } from '../select/SelectionLab';
import { SettingsScreen } from '../settings/SettingsScreen';
import { SkillScreen } from '../skill/SkillScreen';
import { UsageScreen } from '../usage/UsageScreen';
import { CommandPalette } from './CommandPalette';
import { ClientContext, useCuratorEvent } from './context';
import { routeHref, useRoute, type Route } from './router';
import { useTheme, type ThemeChoice } from './theme';
import { Toasts } from './toasts';

const tabs: { screen: Route['screen']; label: string }[] = [
  { screen: 'library', label: 'Library' },
  { screen: 'jobs', label: 'Jobs' },
  { screen: 'select', label: 'Selection lab' },
  { screen: 'evaluation', label: 'Evaluation' },
  { screen: 'profiles', label: 'Profiles' },
  { screen: 'usage', label: 'Usage' },
  { screen: 'audit', label: 'Audit' },
  { screen: 'settings', label: 'Settings' },
];

const nextTheme: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };

function RunningJobs() {
  const [running, setRunning] = useState<Map<string, JobInfo>>(new Map());
  useCuratorEvent((event) => {
    if (event.type !== 'job.updated') return;
    setRunning((prev) => {
      const next = new Map(prev);
      if (event.job.status === 'running' || event.job.status === 'queued') next.set(event.job.id, event.job);
      else next.delete(event.job.id);
      return next;
    });
  });
  if (running.size === 0) return null;
  return (
    <a className="jobs-indicator" href="#/jobs" title="Jobs running">
      <span className="spinner" aria-hidden /> {running.size} job{running.size > 1 ? 's' : ''} running
    </a>
  );
}

function Screen({ route }: { route: Route }) {
  switch (route.screen) {
    case 'skill':
      return <SkillScreen key={route.id} id={route.id} findingId={route.findingId} />;
    case 'review':
      return <ReviewScreen id={route.id} />;
    case 'jobs':
      return <JobsScreen />;
    case 'select':
      return <SelectionLab key={route.runId ?? 'new'} runId={route.runId} />;
    case 'evaluation':
      return <EvaluationScreen />;
    case 'profiles':
      return <ProfilesScreen name={route.name} />;
    case 'usage':
      return <UsageScreen />;
    case 'audit':
      return <AuditScreen />;
    case 'settings':
      return <SettingsScreen section={route.section} />;
    default:
      return <LibraryScreen />;
  }
}

export function App({ client }: { client: CuratorClient }) {
  const route = useRoute();
  const [theme, setTheme] = useTheme(client);
  const active = route.screen === 'skill' || route.screen === 'review' ? 'library' : route.screen;
  return (
    <ClientContext.Provider value={client}>
      <div className="app">
        <header className="topbar">
          <span className="brand">Skill Curator</span>
          <nav aria-label="Screens">
            {tabs.map((tab) => (
              <a
                key={tab.screen}
                href={routeHref({ screen: tab.screen } as Route)}
                className={tab.screen === active ? 'tab active' : 'tab'}
                aria-current={tab.screen === active ? 'page' : undefined}
              >
                {tab.label}
              </a>
            ))}
          </nav>
          <span className="spacer" />
          <RunningJobs />
          <span className="muted small palette-hint" title="Command palette">
            Ctrl+K
          </span>
          <span className="muted mode">{client.mode === 'desktop' ? 'Desktop' : 'Browser'}</span>
          <button
            className="ghost"
            onClick={() => setTheme(nextTheme[theme])}
            title="Switch theme"
            data-testid="theme"
          >
            Theme: {theme}
          </button>
        </header>
        <main className="content">
          <Screen route={route} />
        </main>
        {/* Below the content, not over it: a notice that stays (a failed job) must never hide what it sits on. */}
        <div className="notice-tray">
          <Toasts />
          <JobNotifications />
        </div>
        <CommandPalette />
      </div>
    </ClientContext.Provider>
  );
}
