# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-05-midday-c.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-05-midday-c.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-05-midday-c.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 30.08
64 31.5598
EOD
$t0_1 << EOD
64 36.2823
EOD
$t0_2 << EOD
64 45.2502
64 47.6627
EOD
$t0_3 << EOD
64 51.3068
EOD
$t0_4 << EOD
64 25.4383
EOD
$t0_5 << EOD
64 46.3447
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
64 6.59059
64 6.57853
EOD
$t1_1 << EOD
64 6.01993
EOD
$t1_2 << EOD
64 11.6034
64 11.5379
EOD
$t1_3 << EOD
64 11.6808
EOD
$t1_4 << EOD
64 5.55987
EOD
$t1_5 << EOD
64 11.0085
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
64 8.34922
64 8.45131
EOD
$t2_1 << EOD
64 11.1557
EOD
$t2_2 << EOD
64 10.7737
64 10.5147
EOD
$t2_3 << EOD
64 21.7175
EOD
$t2_4 << EOD
64 6.67395
EOD
$t2_5 << EOD
64 11.5372
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
64 29.408
64 28.0599
EOD
$t3_1 << EOD
64 31.045
EOD
$t3_2 << EOD
64 53.221
64 46.1843
EOD
$t3_3 << EOD
64 57.3723
EOD
$t3_4 << EOD
64 25.9903
EOD
$t3_5 << EOD
64 44.2308
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 1.2062
"cpu/sum: tilejit width-1, 2 threads" 1.13385
"cpu/sum: tilejit cooperative, 1 thread" 0.806034
"cpu/sum: tilejit cooperative, 2 threads" 0.972349
"cpu/histogram: tilejit width-1, 1 thread" 0.913412
"cpu/histogram: tilejit width-1, 2 threads" 1.00667
"cpu/histogram: tilejit cooperative, 1 thread" 0.845154
"cpu/histogram: tilejit cooperative, 2 threads" 0.954122
"cpu/compact: tilejit width-1, 1 thread" 1.33614
"cpu/compact: tilejit width-1, 2 threads" 2.01579
"cpu/compact: tilejit cooperative, 1 thread" 0.789694
"cpu/compact: tilejit cooperative, 2 threads" 1.09725
"cpu/copy: tilejit width-1, 1 thread" 1.05566
"cpu/copy: tilejit width-1, 2 threads" 1.078
"cpu/copy: tilejit cooperative, 1 thread" 0.926244
"cpu/copy: tilejit cooperative, 2 threads" 0.957701
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0

# ---- ratios to the reference
$ratio_compile << EOD
"ptx/store_doubled_thread_indices" 16.9253
"ptx/multiply_elements" 13.2799
"ptx/row_products" 9.82855
"ptx/replace_rows" 11.6034
"ptx/histogram" 13.0056
"ptx/compact_values" 7.29169
"ptx/large" 1.74505
"ptx-first/store_doubled_thread_indices" 7.57112
"ptx-first/multiply_elements" 7.3714
"ptx-first/row_products" 5.45391
"ptx-first/replace_rows" 5.93037
"ptx-first/histogram" 6.3527
"ptx-first/compact_values" 4.67113
"ptx-first/large" 1.63217
"disk/store_doubled_thread_indices" 2.18649
"disk/store_doubled_thread_indices (CPU)" 7.22709
"disk/multiply_elements" 2.32836
"disk/multiply_elements (CPU)" 9.21125
"disk/row_products" 3.05198
"disk/row_products (CPU)" 7.45791
"disk/replace_rows" 2.98111
"disk/replace_rows (CPU)" 9.52617
"disk/histogram" 2.71809
"disk/histogram (CPU)" 6.76386
"disk/compact_values" 3.42637
"disk/compact_values (CPU)" 9.97983
"disk/large" 5.49206
"disk/large (CPU)" 34.5884
"source/store_doubled_thread_indices" 17.0234
"source-first/store_doubled_thread_indices" 8.10116
"source/multiply_elements" 13.2773
"source-first/multiply_elements" 7.84884
"source/row_products" 9.89884
"source-first/row_products" 6.41104
"source/replace_rows" 11.5317
"source-first/replace_rows" 6.72431
"source/histogram" 12.8537
"source-first/histogram" 7.19671
"source/compact_values" 7.2949
"source-first/compact_values" 5.42573
"source/large" 1.7339
"source-first/large" 1.63727
EOD
set output outdir.'/ratio_compile.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_compile using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
