// The fresh second-factor code the gateway asks for before refunds, key rotation, tokens and team
// changes (SECOND_FACTOR_REQUIRED, when the session's last code is older than a few minutes): a
// modal dialog asks for it, sends confirmSecondFactor, and the call is repeated once. Screens use
// useStepUpMutation instead of urql's useMutation for those calls.
import { createContext, useCallback, useContext, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, type AnyVariables, type OperationContext, type OperationResult, type TypedDocumentNode } from 'urql';
import { useT } from '../i18n.ts';
import { graphql } from '../graphql.ts';

const CONFIRM = graphql(`
  mutation ConfirmSecondFactor($code: String!) { confirmSecondFactor(code: $code) { result { successful message } errors { path message } } }
`);

const AskContext = createContext<() => Promise<boolean>>(async () => false);

/** Whether an answer asks for a fresh code. */
export const asksForCode = (res: OperationResult<unknown, AnyVariables>): boolean =>
  !!res.error?.graphQLErrors.some((e) => e.extensions?.code === 'SECOND_FACTOR_REQUIRED');

export function StepUpProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<{ resolve: (ok: boolean) => void } | null>(null);
  const ask = useCallback(() => new Promise<boolean>((resolve) => setPending({ resolve })), []);
  const done = (ok: boolean) => {
    pending?.resolve(ok);
    setPending(null);
  };
  return (
    <AskContext.Provider value={ask}>
      {children}
      {pending && <CodeDialog onDone={done} />}
    </AskContext.Provider>
  );
}

/** urql's useMutation whose call, when the gateway asks for a fresh code, asks the person and repeats itself once. */
export function useStepUpMutation<D, V extends AnyVariables>(document: TypedDocumentNode<D, V>) {
  const [state, execute] = useMutation<D, V>(document);
  const ask = useContext(AskContext);
  const run = useCallback(
    async (variables: V, context?: Partial<OperationContext>): Promise<OperationResult<D, V>> => {
      const first = await execute(variables, context);
      if (!asksForCode(first)) return first;
      return (await ask()) ? execute(variables, context) : first;
    },
    [execute, ask],
  );
  return [state, run] as const;
}

function CodeDialog({ onDone }: { onDone: (ok: boolean) => void }) {
  const { t } = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [, confirm] = useMutation(CONFIRM);
  const ok = useRef(false);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await confirm({ code: code.trim() });
    const answer = res.data?.confirmSecondFactor;
    if (answer?.result.successful) {
      ok.current = true;
      dialog.current?.close();
    } else setFailure(answer?.result.message ?? res.error?.message ?? t.kitServerDown);
  };
  return (
    <dialog ref={dialog} className="sent-panel" aria-labelledby="step-up-title" onClose={() => onDone(ok.current)}>
      <form className="stack" onSubmit={submit}>
        <h2 id="step-up-title">{t.stepUpTitle}</h2>
        <p>{t.stepUpHelp}</p>
        <div className="field">
          <label htmlFor="step-up-code">{t.authCode}</label>
          <input id="step-up-code" name="code" inputMode="numeric" autoComplete="one-time-code" required autoFocus value={code} onChange={(e) => setCode(e.target.value)} aria-describedby={failure ? 'step-up-error' : undefined} />
        </div>
        {failure && <p id="step-up-error" className="error" role="alert">{failure}</p>}
        <div className="row">
          <button type="submit" className="primary">{t.confirm}</button>
          <button type="button" onClick={() => dialog.current?.close()}>{t.dismiss}</button>
        </div>
      </form>
    </dialog>
  );
}
