/** Bank parameters (Heimdall's bank: sends can be switched off chain-wide). */
export interface BankParams {
  sendEnabled: boolean;
}

export const DEFAULT_BANK_PARAMS: BankParams = { sendEnabled: true };

/** The query output; also the genesis form (`app_state.bank`). */
export function bankParamsJson(p: BankParams): Record<string, unknown> {
  return { send_enabled: p.sendEnabled };
}
