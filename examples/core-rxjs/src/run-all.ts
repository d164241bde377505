/** Runs every program of this example in turn; any failed check stops it with a non-zero exit. */
for (const program of ["quick-start", "search-box", "first-result", "race-dates", "effect-source", "own-supplier"]) {
  console.log(`\n▶ ${program}`);
  await import(`./${program}.ts`);
}
