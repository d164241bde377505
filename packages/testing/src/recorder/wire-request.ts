/** The request body of a query, as clients send it (core's `wireRequestOf`). */
export { wireRequestOf } from "@voar/core";
