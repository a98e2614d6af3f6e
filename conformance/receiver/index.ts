/** The built-in webhook receiver: see server.ts. */
export { startReceiver, type ReceiverOptions } from "./server.ts";
