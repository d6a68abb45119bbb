// Mapped in tsconfig.core.json: importing electron below src/core is a compile error.
export {};
