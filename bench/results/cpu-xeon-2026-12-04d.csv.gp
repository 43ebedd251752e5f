# Charts of the tilejit-bench run in bench/results/cpu-xeon-2026-12-04d.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-xeon-2026-12-04d.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-xeon-2026-12-04d.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 30.7586
64 27.9598
EOD
$t0_1 << EOD
64 27.5376
EOD
$t0_2 << EOD
4 30.1104
64 49.0606
EOD
$t0_3 << EOD
64 48.3069
EOD
$t0_4 << EOD
4 29.5136
EOD
$t0_5 << EOD
4 48.7928
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
4 6.54293
64 6.14922
EOD
$t1_1 << EOD
64 4.77727
EOD
$t1_2 << EOD
4 8.09609
64 10.6321
EOD
$t1_3 << EOD
64 9.00208
EOD
$t1_4 << EOD
4 3.06411
EOD
$t1_5 << EOD
4 4.99746
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
4 4.66683
64 5.08139
EOD
$t2_1 << EOD
64 7.19154
EOD
$t2_2 << EOD
4 6.97636
64 5.71199
EOD
$t2_3 << EOD
64 11.6292
EOD
$t2_4 << EOD
4 4.13626
EOD
$t2_5 << EOD
4 7.12038
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
4 27.7626
64 26.454
EOD
$t3_1 << EOD
64 26.0783
EOD
$t3_2 << EOD
4 39.2933
64 51.0015
EOD
$t3_3 << EOD
64 51.0001
EOD
$t3_4 << EOD
4 23.9188
EOD
$t3_5 << EOD
4 39.557
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
"cpu/sum: tilejit width-1, 1 thread" 0.984898
"cpu/sum: tilejit width-1, 2 threads" 0.984638
"cpu/sum: tilejit cooperative, 1 thread" 0.959522
"cpu/sum: tilejit cooperative, 2 threads" 1.62046
"cpu/histogram: tilejit width-1, 1 thread" 0.776891
"cpu/histogram: tilejit width-1, 2 threads" 0.846692
"cpu/histogram: tilejit cooperative, 1 thread" 0.468308
"cpu/histogram: tilejit cooperative, 2 threads" 0.617269
"cpu/compact: tilejit width-1, 1 thread" 1.41527
"cpu/compact: tilejit width-1, 2 threads" 2.03593
"cpu/compact: tilejit cooperative, 1 thread" 0.886311
"cpu/compact: tilejit cooperative, 2 threads" 1.02064
"cpu/copy: tilejit width-1, 1 thread" 0.985798
"cpu/copy: tilejit width-1, 2 threads" 0.999972
"cpu/copy: tilejit cooperative, 1 thread" 0.861547
"cpu/copy: tilejit cooperative, 2 threads" 1.00671
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
"ptx/store_doubled_thread_indices" 13.786
"ptx/multiply_elements" 11.8459
"ptx/row_products" 8.04355
"ptx/replace_rows" 11.5798
"ptx/histogram" 11.3856
"ptx/compact_values" 6.91385
"ptx/large" 1.67347
"ptx-first/store_doubled_thread_indices" 8.39408
"ptx-first/multiply_elements" 6.60639
"ptx-first/row_products" 6.25199
"ptx-first/replace_rows" 7.89193
"ptx-first/histogram" 7.21304
"ptx-first/compact_values" 7.21878
"ptx-first/large" 1.81197
"disk/store_doubled_thread_indices" 2.26277
"disk/store_doubled_thread_indices (CPU)" 7.05551
"disk/multiply_elements" 2.46
"disk/multiply_elements (CPU)" 6.23908
"disk/row_products" 3.04251
"disk/row_products (CPU)" 7.19866
"disk/replace_rows" 3.06029
"disk/replace_rows (CPU)" 9.63859
"disk/histogram" 2.82525
"disk/histogram (CPU)" 8.50333
"disk/compact_values" 3.41253
"disk/compact_values (CPU)" 10.1541
"disk/large" 7.30014
"disk/large (CPU)" 34.2304
"source/store_doubled_thread_indices" 11.0393
"source-first/store_doubled_thread_indices" 8.59936
"source/multiply_elements" 11.4129
"source-first/multiply_elements" 8.29785
"source/row_products" 7.39394
"source-first/row_products" 6.44863
"source/replace_rows" 11.5156
"source-first/replace_rows" 9.054
"source/histogram" 10.854
"source-first/histogram" 8.04373
"source/compact_values" 6.64618
"source-first/compact_values" 7.28469
"source/large" 1.65762
"source-first/large" 2.02936
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
