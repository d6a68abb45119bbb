// Hash routes (#/library, #/skill/12, …): no server routes are needed in browser mode.
import { useEffect, useState } from 'react';

export type Route =
  | { screen: 'library' }
  /** `findingId`: the audit finding to open, its file shown at its line (#/skill/12/finding/34). */
  | { screen: 'skill'; id: number; findingId?: number }
  | { screen: 'review'; id?: number }
  | { screen: 'jobs' }
  | { screen: 'select'; runId?: number }
  | { screen: 'evaluation' }
  | { screen: 'profiles'; name?: string }
  | { screen: 'usage' }
  /** The audit's findings, worst first, one at a time (like the review queue). */
  | { screen: 'audit' }
  /** `section`: the group the screen scrolls to (#/settings/import), where a message sends people to one setting. */
  | { screen: 'settings'; section?: string };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/');
  switch (parts[0]) {
    case 'skill': {
      const id = Number(parts[1]);
      const findingId = parts[2] === 'finding' ? Number(parts[3]) : NaN;
      if (!(Number.isInteger(id) && id > 0)) return { screen: 'library' };
      return Number.isInteger(findingId) && findingId > 0
        ? { screen: 'skill', id, findingId }
        : { screen: 'skill', id };
    }
    case 'review': {
      const id = Number(parts[1]);
      return Number.isInteger(id) && id > 0 ? { screen: 'review', id } : { screen: 'review' };
    }
    case 'jobs':
      return { screen: 'jobs' };
    case 'select': {
      const runId = Number(parts[1]);
      return Number.isInteger(runId) && runId > 0 ? { screen: 'select', runId } : { screen: 'select' };
    }
    case 'evaluation':
      return { screen: 'evaluation' };
    case 'usage':
      return { screen: 'usage' };
    case 'audit':
      return { screen: 'audit' };
    case 'profiles':
      return parts[1] ? { screen: 'profiles', name: decodeURIComponent(parts[1]) } : { screen: 'profiles' };
    case 'settings':
      return parts[1]
        ? { screen: 'settings', section: decodeURIComponent(parts[1]) }
        : { screen: 'settings' };
    default:
      return { screen: 'library' };
  }
}

export function routeHref(route: Route): string {
  if (route.screen === 'skill')
    return `#/skill/${route.id}${route.findingId !== undefined ? `/finding/${route.findingId}` : ''}`;
  if (route.screen === 'review' && route.id !== undefined) return `#/review/${route.id}`;
  if (route.screen === 'select' && route.runId !== undefined) return `#/select/${route.runId}`;
  if (route.screen === 'profiles' && route.name !== undefined)
    return `#/profiles/${encodeURIComponent(route.name)}`;
  if (route.screen === 'settings' && route.section !== undefined)
    return `#/settings/${encodeURIComponent(route.section)}`;
  return `#/${route.screen}`;
}

export function navigate(route: Route): void {
  window.location.hash = routeHref(route).slice(1);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}
