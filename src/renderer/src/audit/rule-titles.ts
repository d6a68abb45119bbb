// The audit rules' titles by id, asked once per page (the catalog does not change while the app runs).
import { useMemo } from 'react';
import { useApi } from '../app/use-api';

export function useRuleTitles(): (ruleId: string) => string | undefined {
  const rules = useApi('audit.rules', {});
  return useMemo(() => {
    const byId = new Map((rules.data ?? []).map((r) => [r.id, r.title]));
    return (ruleId: string) => byId.get(ruleId);
  }, [rules.data]);
}
