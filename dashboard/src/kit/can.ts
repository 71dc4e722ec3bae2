// What the signed-in token may change, for hiding the buttons it could not use. The gateway
// answers `viewerPermissions` (the mutations its role table lets this token call) in the shell's
// WhoAmI query; this is presentation only: the API refuses the others whatever the page shows.
//
//   const can = useCan();                 // in any screen under the shell
//   {can('refundPayment') && <button …>}  // or viewer.can('refundPayment') where a Viewer is passed
import { createContext, useContext } from 'react';

/** Whether the signed-in token may call this mutation (a GraphQL mutation field's name). */
export type Can = (mutation: string) => boolean;

/** `can` from the mutations the gateway listed; nothing is allowed before it answered. */
export function canFrom(permissions: readonly string[] | null | undefined): Can {
  const allowed = new Set(permissions ?? []);
  return (mutation) => allowed.has(mutation);
}

const CanContext = createContext<Can>(canFrom([]));

/** Provided by the shell (App.tsx) once WhoAmI has answered. */
export const CanProvider = CanContext.Provider;

/** The signed-in token's `can`. */
export function useCan(): Can {
  return useContext(CanContext);
}
