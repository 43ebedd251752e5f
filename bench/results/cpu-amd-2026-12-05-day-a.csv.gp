# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-05-day-a.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-05-day-a.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-05-day-a.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 22.1843
64 26.5785
EOD
$t0_1 << EOD
64 25.6709
EOD
$t0_2 << EOD
64 26.739
64 33.7879
EOD
$t0_3 << EOD
64 33.5538
EOD
$t0_4 << EOD
64 14.5984
EOD
$t0_5 << EOD
64 27.2361
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
64 6.59771
64 6.5987
EOD
$t1_1 << EOD
64 6.02556
EOD
$t1_2 << EOD
64 11.5102
64 11.4704
EOD
$t1_3 << EOD
64 11.7419
EOD
$t1_4 << EOD
64 4.09244
EOD
$t1_5 << EOD
64 8.03383
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
64 8.4369
64 8.41867
EOD
$t2_1 << EOD
64 11.2194
EOD
$t2_2 << EOD
64 9.42503
64 10.4101
EOD
$t2_3 << EOD
64 16.3904
EOD
$t2_4 << EOD
64 4.82289
EOD
$t2_5 << EOD
64 8.88811
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
64 25.7539
64 25.1168
EOD
$t3_1 << EOD
64 27.4941
EOD
$t3_2 << EOD
64 30.6235
64 31.7174
EOD
$t3_3 << EOD
64 34.0076
EOD
$t3_4 << EOD
64 15.524
EOD
$t3_5 << EOD
64 26.506
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
"cpu/sum: tilejit width-1, 1 thread" 1.15717
"cpu/sum: tilejit width-1, 2 threads" 1.25486
"cpu/sum: tilejit cooperative, 1 thread" 0.549256
"cpu/sum: tilejit cooperative, 2 threads" 0.80609
"cpu/histogram: tilejit width-1, 1 thread" 0.91328
"cpu/histogram: tilejit width-1, 2 threads" 1.02013
"cpu/histogram: tilejit cooperative, 1 thread" 0.620189
"cpu/histogram: tilejit cooperative, 2 threads" 0.700397
"cpu/compact: tilejit width-1, 1 thread" 1.32981
"cpu/compact: tilejit width-1, 2 threads" 1.73903
"cpu/compact: tilejit cooperative, 1 thread" 0.572881
"cpu/compact: tilejit cooperative, 2 threads" 0.853798
"cpu/copy: tilejit width-1, 1 thread" 1.06757
"cpu/copy: tilejit width-1, 2 threads" 1.1105
"cpu/copy: tilejit cooperative, 1 thread" 0.618072
"cpu/copy: tilejit cooperative, 2 threads" 0.835692
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
"ptx/store_doubled_thread_indices" 15.437
"ptx/multiply_elements" 12.7827
"ptx/row_products" 9.41772
"ptx/replace_rows" 10.4848
"ptx/histogram" 12.1725
"ptx/compact_values" 6.95325
"ptx/large" 1.69296
"ptx-first/store_doubled_thread_indices" 8.47519
"ptx-first/multiply_elements" 7.88627
"ptx-first/row_products" 6.41057
"ptx-first/replace_rows" 7.08496
"ptx-first/histogram" 7.37672
"ptx-first/compact_values" 5.29842
"ptx-first/large" 1.61243
"disk/store_doubled_thread_indices" 2.08647
"disk/store_doubled_thread_indices (CPU)" 7.63622
"disk/multiply_elements" 2.5643
"disk/multiply_elements (CPU)" 8.74751
"disk/row_products" 2.81671
"disk/row_products (CPU)" 7.8177
"disk/replace_rows" 2.41381
"disk/replace_rows (CPU)" 8.93086
"disk/histogram" 2.26379
"disk/histogram (CPU)" 7.79754
"disk/compact_values" 2.76426
"disk/compact_values (CPU)" 9.30835
"disk/large" 5.71019
"disk/large (CPU)" 33.4687
"source/store_doubled_thread_indices" 15.4776
"source-first/store_doubled_thread_indices" 7.61269
"source/multiply_elements" 12.3563
"source-first/multiply_elements" 7.29674
"source/row_products" 9.27839
"source-first/row_products" 5.77454
"source/replace_rows" 10.2294
"source-first/replace_rows" 6.41851
"source/histogram" 11.3648
"source-first/histogram" 6.03266
"source/compact_values" 6.50549
"source-first/compact_values" 4.76341
"source/large" 1.62677
"source-first/large" 1.5442
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
