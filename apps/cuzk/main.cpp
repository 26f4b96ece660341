// cuzk: one binary, subcommands. This file parses flags and wires objects; the work lives in src/.

#include <CLI/CLI.hpp>

#include "selfcheck.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cuzk: a Groth16 prover for Filecoin proofs (BLS12-381)"};
  app.require_subcommand(1);

  cuzk::app::SelfcheckOptions selfcheck;
  auto* sc = app.add_subcommand("selfcheck", "check the pairing's bilinearity and time field, curve and pairing ops");
  sc->add_flag("--quick", selfcheck.quick, "one short timing round");
  sc->add_flag("--json", selfcheck.json, "print the results as one JSON object");

  CLI11_PARSE(app, argc, argv);
  if (sc->parsed()) return cuzk::app::run_selfcheck(selfcheck);
  return 1;
}
