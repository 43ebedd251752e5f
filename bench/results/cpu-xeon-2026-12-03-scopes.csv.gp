# Charts of the tilejit-bench run in bench/results/cpu-xeon-2026-12-03-scopes.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-xeon-2026-12-03-scopes.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-xeon-2026-12-03-scopes.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 26.0818
64 23.9366
EOD
$t0_1 << EOD
64 23.699
EOD
$t0_2 << EOD
4 28.1866
64 41.3331
EOD
$t0_3 << EOD
64 43.8711
EOD
$t0_4 << EOD
4 19.3906
EOD
$t0_5 << EOD
4 29.0028
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
4 5.61443
64 3.28015
EOD
$t1_1 << EOD
64 2.47342
EOD
$t1_2 << EOD
4 5.10287
64 5.95931
EOD
$t1_3 << EOD
64 5.61371
EOD
$t1_4 << EOD
4 2.72196
EOD
$t1_5 << EOD
4 3.9265
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
4 3.1951
64 2.92925
EOD
$t2_1 << EOD
64 3.06805
EOD
$t2_2 << EOD
4 4.54058
64 4.81575
EOD
$t2_3 << EOD
64 6.36009
EOD
$t2_4 << EOD
4 0.811816
EOD
$t2_5 << EOD
4 1.5784
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
4 25.4547
64 11.4427
EOD
$t3_1 << EOD
64 10.7015
EOD
$t3_2 << EOD
4 28.7281
64 30.6303
EOD
$t3_3 << EOD
64 29.1098
EOD
$t3_4 << EOD
4 8.09896
EOD
$t3_5 << EOD
4 15.8479
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
"cpu/sum: tilejit width-1, 1 thread" 0.990072
"cpu/sum: tilejit width-1, 2 threads" 1.0614
"cpu/sum: tilejit cooperative, 1 thread" 0.743455
"cpu/sum: tilejit cooperative, 2 threads" 1.02896
"cpu/histogram: tilejit width-1, 1 thread" 0.754057
"cpu/histogram: tilejit width-1, 2 threads" 0.942008
"cpu/histogram: tilejit cooperative, 1 thread" 0.484816
"cpu/histogram: tilejit cooperative, 2 threads" 0.769468
"cpu/compact: tilejit width-1, 1 thread" 1.04738
"cpu/compact: tilejit width-1, 2 threads" 1.32068
"cpu/compact: tilejit cooperative, 1 thread" 0.254082
"cpu/compact: tilejit cooperative, 2 threads" 0.347622
"cpu/copy: tilejit width-1, 1 thread" 0.93522
"cpu/copy: tilejit width-1, 2 threads" 0.950358
"cpu/copy: tilejit cooperative, 1 thread" 0.318172
"cpu/copy: tilejit cooperative, 2 threads" 0.551651
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
"ptx/store_doubled_thread_indices" 16.5969
"ptx/multiply_elements" 10.0762
"ptx/row_products" 8.11055
"ptx/replace_rows" 9.63374
"ptx/histogram" 13.2511
"ptx/compact_values" 7.04955
"ptx/large" 1.30755
"ptx-first/store_doubled_thread_indices" 7.77348
"ptx-first/multiply_elements" 10.341
"ptx-first/row_products" 7.15021
"ptx-first/replace_rows" 6.22625
"ptx-first/histogram" 4.73203
"ptx-first/compact_values" 4.96475
"ptx-first/large" 1.34081
"disk/store_doubled_thread_indices" 1.92979
"disk/store_doubled_thread_indices (CPU)" 6.53532
"disk/multiply_elements" 1.66236
"disk/multiply_elements (CPU)" 5.20558
"disk/row_products" 2.16838
"disk/row_products (CPU)" 6.15196
"disk/replace_rows" 2.05114
"disk/replace_rows (CPU)" 8.79253
"disk/histogram" 2.40586
"disk/histogram (CPU)" 7.01535
"disk/compact_values" 3.28858
"disk/compact_values (CPU)" 10.2355
"disk/large" 6.98566
"disk/large (CPU)" 34.2112
"source/store_doubled_thread_indices" 14.7086
"source-first/store_doubled_thread_indices" 6.50732
"source/multiply_elements" 9.67019
"source-first/multiply_elements" 7.32356
"source/row_products" 7.01556
"source-first/row_products" 5.16457
"source/replace_rows" 8.98876
"source-first/replace_rows" 5.30257
"source/histogram" 9.62777
"source-first/histogram" 4.78213
"source/compact_values" 4.9914
"source-first/compact_values" 5.18269
"source/large" 1.34248
"source-first/large" 1.5278
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
