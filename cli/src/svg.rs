//! placeholder
use crate::input::Source;
use crate::planout::PlanStats;
use vksync::plan::{Plan, PlanOptions};
pub fn render(
    _s: &Source,
    _p: &Plan,
    _o: PlanOptions,
    _st: &PlanStats,
) -> Result<String, vksync::ProgramError> {
    Ok(String::new())
}
