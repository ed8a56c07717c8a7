/**
 * The HTTP face of the engine (package subpath `./http`): a web-standard handler, a node:http listener adapter,
 * callback delivery, the routes table and the OpenAPI document generated from it.
 */
export { createHttpHandler, parseRawQuery } from './handler.ts'
export type { HttpHandler, HttpHandlerOptions, RawRequestInfo, RequestLogEntry } from './handler.ts'
export { toNodeListener, continueListener, clientErrorListener } from './node.ts'
export type { NodeListener, NodeListenerOptions } from './node.ts'
export { createCallbackDelivery, callbackAddressCheck, DEFAULT_DENIED_RANGES, CALLBACK_RESPONSE_LIMIT } from './callbacks.ts'
export type { CallbackAddressCheck, CallbackAddressPolicy, CallbackDelivery, CallbackDeliveryOptions, DeliveryLogEntry } from './callbacks.ts'
export { createRoutes, matchRoute, decodePathId } from './routes.ts'
export type { Route, RouteMatch, RouteMethod, WireFormat } from './routes.ts'
export { buildOpenApi } from './openapi.ts'
export { createPlayground, withPlayground } from './playground.ts'
export type { PlaygroundHandler, PlaygroundOptions } from './playground.ts'
