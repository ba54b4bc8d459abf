//! Plots of `ladr eval` results as SVG (`--plot FILE.svg`, also from a past run's JSON with
//! `--plot-only RESULTS.json`), drawn with plotters' SVG backend:
//!
//! * the SV-COMP quantile plot: the CPU time of every correctly answered task, sorted, the
//!   n-th fastest at x = n, log y; one series per run (with `--compare`, the old run too);
//! * with `--compare OLD.json`, a scatter of the per-task CPU times of the two runs (tasks in
//!   both, matched by path; log-log, with the diagonal), written beside the quantile plot as
//!   `FILE-scatter.svg`.
//!
//! Every task is one `<circle>` in the SVG (a test counts them).

use super::{Run, TaskResult};
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// Times below this are drawn at it (log scale).
const FLOOR: f64 = 0.01;

/// The CPU times of the correctly answered tasks of `tasks`, sorted.
pub fn quantiles(tasks: &[TaskResult]) -> Vec<f64> {
    let mut t: Vec<f64> = tasks
        .iter()
        .filter(|r| r.status.name().starts_with("correct"))
        .map(|r| r.cpu_s.max(FLOOR))
        .collect();
    t.sort_by(f64::total_cmp);
    t
}

const COLOURS: [RGBColor; 2] = [RGBColor(37, 99, 235), RGBColor(217, 119, 6)];

/// The quantile plot of the runs (name, results) as SVG text.
pub fn quantile_svg(runs: &[(&str, &[TaskResult])]) -> Result<String, String> {
    let series: Vec<(&str, Vec<f64>)> = runs.iter().map(|(n, t)| (*n, quantiles(t))).collect();
    let n = series
        .iter()
        .map(|(_, s)| s.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let top = series
        .iter()
        .flat_map(|(_, s)| s.iter().copied())
        .fold(1.0, f64::max)
        * 2.0;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(e)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "ladr eval: quantile plot (correct answers)",
                ("sans-serif", 20),
            )
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(0f64..(n as f64 + 1.0), (FLOOR..top).log_scale())
            .map_err(e)?;
        chart
            .configure_mesh()
            .x_desc("n-th fastest correct result")
            .y_desc("CPU time (s)")
            .draw()
            .map_err(e)?;
        for (i, (name, s)) in series.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let points: Vec<(f64, f64)> = s
                .iter()
                .enumerate()
                .map(|(k, t)| (k as f64 + 1.0, *t))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), colour))
                .map_err(e)?
                .label(format!("{name} ({} correct)", s.len()))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour));
            chart
                .draw_series(
                    points
                        .into_iter()
                        .map(|p| Circle::new(p, 3, colour.filled())),
                )
                .map_err(e)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .border_style(BLACK)
            .background_style(WHITE.mix(0.8))
            .draw()
            .map_err(e)?;
        root.present().map_err(e)?;
    }
    Ok(svg)
}

/// The scatter plot of per-task CPU times, old run (x) against new run (y).
pub fn scatter_svg(old: &[TaskResult], new: &[TaskResult]) -> Result<String, String> {
    let pairs: Vec<(f64, f64)> = new
        .iter()
        .filter_map(|r| {
            let o = old.iter().find(|o| o.task == r.task)?;
            Some((o.cpu_s.max(FLOOR), r.cpu_s.max(FLOOR)))
        })
        .collect();
    let top = pairs.iter().map(|(a, b)| a.max(*b)).fold(1.0, f64::max) * 2.0;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (640, 600)).into_drawing_area();
        root.fill(&WHITE).map_err(e)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("ladr eval: CPU time per task", ("sans-serif", 20))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d((FLOOR..top).log_scale(), (FLOOR..top).log_scale())
            .map_err(e)?;
        chart
            .configure_mesh()
            .x_desc("old run: CPU time (s)")
            .y_desc("new run: CPU time (s)")
            .draw()
            .map_err(e)?;
        chart
            .draw_series(LineSeries::new(
                vec![(FLOOR, FLOOR), (top, top)],
                BLACK.mix(0.4),
            ))
            .map_err(e)?;
        chart
            .draw_series(
                pairs
                    .into_iter()
                    .map(|p| Circle::new(p, 3, COLOURS[0].filled())),
            )
            .map_err(e)?;
        root.present().map_err(e)?;
    }
    Ok(svg)
}

fn e<E: std::fmt::Display>(err: E) -> String {
    format!("cannot draw the plot: {err}")
}

/// Where the scatter plot of `FILE.svg` goes: `FILE-scatter.svg`.
pub fn scatter_path(plot: &Path) -> PathBuf {
    let stem = plot
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "plot".into());
    plot.with_file_name(format!("{stem}-scatter.svg"))
}

/// Writes the plots of `run` (and `old`, named `old_name`) to `path` (and its scatter path);
/// returns the files written.
pub fn write(path: &Path, run: &Run, old: Option<(&Run, &str)>) -> Result<Vec<PathBuf>, String> {
    let mut runs: Vec<(&str, &[TaskResult])> = vec![];
    if let Some((o, name)) = old {
        runs.push((name, &o.tasks));
    }
    runs.push(("this run", &run.tasks));
    let put = |p: &Path, text: String| {
        std::fs::write(p, text).map_err(|err| format!("cannot write {}: {err}", p.display()))
    };
    put(path, quantile_svg(&runs)?)?;
    let mut written = vec![path.to_path_buf()];
    if let Some((o, _)) = old {
        let s = scatter_path(path);
        put(&s, scatter_svg(&o.tasks, &run.tasks)?)?;
        written.push(s);
    }
    Ok(written)
}

/// `--plot-only RESULTS.json`: the plots of a past run.
pub fn plot_only(
    results: &Path,
    plot: &Path,
    compare: Option<&Path>,
) -> Result<Vec<PathBuf>, String> {
    let read = |p: &Path| -> Result<Run, String> {
        let text = std::fs::read_to_string(p)
            .map_err(|err| format!("cannot read {}: {err}", p.display()))?;
        serde_json::from_str(&text).map_err(|err| format!("{}: {err}", p.display()))
    };
    let run = read(results)?;
    let old = compare.map(read).transpose()?;
    let name = compare.map(|p| p.display().to_string()).unwrap_or_default();
    write(plot, &run, old.as_ref().map(|o| (o, name.as_str())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Answer, Status};

    fn task(name: &str, status: Status, cpu: f64) -> TaskResult {
        TaskResult {
            task: name.into(),
            subfolder: "s".into(),
            input: "i".into(),
            expected: false,
            answer: Answer::False,
            status,
            exit_code: Some(1),
            reason: None,
            wall_s: cpu,
            cpu_s: cpu,
            peak_mb: None,
            stats: None,
        }
    }

    #[test]
    fn one_circle_per_correct_task() {
        let tasks = vec![
            task("a", Status::CorrectFalse, 2.0),
            task("b", Status::CorrectTrue, 0.5),
            task("c", Status::Unknown, 20.0),
            task("d", Status::CorrectFalse, 0.0),
        ];
        assert_eq!(quantiles(&tasks), vec![FLOOR, 0.5, 2.0]);
        let svg = quantile_svg(&[("run", &tasks)]).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
        assert_eq!(svg.matches("<circle").count(), 3);
        let old = vec![
            task("a", Status::CorrectFalse, 4.0),
            task("x", Status::CorrectFalse, 1.0),
        ];
        let svg = scatter_svg(&old, &tasks).unwrap();
        assert_eq!(svg.matches("<circle").count(), 1, "only tasks in both runs");
        assert_eq!(
            scatter_path(Path::new("docs/q.svg")),
            Path::new("docs/q-scatter.svg")
        );
    }
}
