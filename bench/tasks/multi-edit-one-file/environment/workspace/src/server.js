import { createServer } from "node:http";

export const PORT = 3000;
export const HOST = "localhost";

export const start = () => createServer((request, response) => response.end("ok")).listen(PORT, HOST);
