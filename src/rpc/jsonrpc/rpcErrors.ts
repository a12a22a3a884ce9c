/**
 * geth's JSON-RPC error codes (sidechain.md §4.4) and the error a method handler throws.
 *
 * `-32601` keeps geth's wording `the method <name> does not exist/is not available`, which ethers
 * matches to map it to UNSUPPORTED_OPERATION; `-32602` messages are geth's argument errors; any
 * other handler error is `-32000`, as geth reports an error a method returns.
 */
export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_METHOD_NOT_FOUND = -32601;
export const JSONRPC_INVALID_PARAMS = -32602;
export const JSONRPC_INTERNAL_ERROR = -32603;
export const JSONRPC_SERVER_ERROR = -32000;
export const JSONRPC_RESPONSE_TOO_LARGE = -32003;

export interface RpcErrorObject {
  code: number;
  message: string;
}

/** A handler's failure; the method table turns it into the error object. */
export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcFailure';
  }
}

/** An error a method returns (geth: `-32000` with the error's text). */
export const handlerError = (message: string): RpcFailure => new RpcFailure(JSONRPC_SERVER_ERROR, message);

export const invalidParams = (message: string): RpcFailure => new RpcFailure(JSONRPC_INVALID_PARAMS, message);

export const methodNotFound = (method: string): RpcErrorObject => ({
  code: JSONRPC_METHOD_NOT_FOUND,
  message: `the method ${method} does not exist/is not available`,
});
